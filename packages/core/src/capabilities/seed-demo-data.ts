import type { CatalogItemRecord } from "../ports/capability-records.js";
import type { ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";

type DemoItem = Pick<
  CatalogItemRecord,
  | "sku"
  | "name"
  | "price"
  | "stock"
  | "location"
  | "address"
  | "developer"
  | "delivery"
  | "amenities"
  | "typologies"
  | "variants"
  | "description"
>;

const ITEMS: DemoItem[] = [
  {
    sku: "MIR-101",
    name: "Edificio Mirador Ñuñoa",
    price: 98_000_000,
    stock: 4,
    location: "Ñuñoa, Santiago",
    address: "Av. Irarrázaval 2450",
    developer: "Inmobiliaria Andes",
    delivery: "Entrega inmediata",
    amenities: ["piscina", "quincho", "gimnasio"],
    typologies: ["1D1B", "2D2B"],
    description: "Departamentos a pasos del metro, vista despejada a la cordillera.",
    variants: [
      { sku: "MIR-101-1D", name: "1D1B 45 m²", price: 89_000_000, stock: 2 },
      { sku: "MIR-101-2D", name: "2D2B 62 m²", price: 112_000_000, stock: 2 },
    ],
  },
  {
    sku: "BOS-220",
    name: "Condominio Bosque Peñalolén",
    price: 145_000_000,
    stock: 1,
    location: "Peñalolén, Santiago",
    address: "Av. Grecia 8900",
    developer: "Constructora Cordillera",
    delivery: "Segundo semestre 2026",
    amenities: "áreas verdes",
    typologies: "3D2B",
    description: "Casas con patio y estacionamiento doble.",
    variants: [],
  },
  {
    sku: "PAR-305",
    name: "Parque Providencia",
    price: 189_000_000,
    stock: 0,
    location: "Providencia, Santiago",
    address: "Av. Pedro de Valdivia 1500",
    developer: "Inmobiliaria Andes",
    delivery: "Marzo 2027",
    amenities: null,
    typologies: ["2D2B", "3D2B"],
    description: "En verde; reserva con 10% de pie.",
    variants: [],
  },
];

const CONTACTS = [
  { name: "María José Ñuñez", phone: "+56911112222", email: "mj.nunez@example.cl", tags: ["comprador"] },
  { name: "Pedro Soto", phone: "+56922223333", email: "pedro.soto@example.cl", tags: [] },
  { name: "Camila Rojas", phone: "+56933334444", email: null, tags: ["inversionista"] },
];

const CHAT: Array<[sender: string, content: string]> = [
  ["contact", "Hola, ¿siguen disponibles los 2D2B del Mirador?"],
  ["agent", "¡Hola! Sí, quedan 2 unidades 2D2B de 62 m² desde 112.000.000 CLP."],
  ["contact", "¿Tienen estacionamiento incluido?"],
  ["human", "Se vende aparte; te envío la cotización hoy."],
];

/**
 * Fills a workspace with a small real-estate catalog (units with typologies, amenities, location,
 * developer and CLP prices), three contacts and two conversations, so every built-in capability
 * answers something on a first run of the demo. Safe to call once per workspace.
 */
export async function seedDemoData(vitrina: { storage: Storage }, workspaceId: string, now: Date = new Date()) {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const id = () => crypto.randomUUID();
  return vitrina.storage.transaction(async (tx) => {
    for (const item of ITEMS) {
      await tx.catalogItems.upsert({
        ...item,
        id: id(),
        workspaceId,
        source: "service_native",
        currency: "CLP",
        availability: (item.stock ?? 0) > 0 ? "in_stock" : "out_of_stock",
        images: [`https://images.example.cl/${item.sku.toLowerCase()}/cover.jpg`],
        createdAt: at(600),
        updatedAt: at(600),
      });
    }
    const contacts: ContactRecord[] = [];
    for (const c of CONTACTS) {
      const { contact } = await tx.contacts.insertOrGetByPhone({
        id: id(),
        workspaceId,
        name: c.name,
        phoneE164: c.phone,
        email: c.email,
        tags: c.tags,
        score: null,
        ltv: null,
        whatsappConsent: null,
        whatsappOptedOutAt: null,
        createdAt: at(300),
        updatedAt: at(300),
      });
      contacts.push(contact);
    }
    const conversationIds: string[] = [];
    for (const [index, contact] of contacts.slice(0, 2).entries()) {
      const conversationId = id();
      conversationIds.push(conversationId);
      await tx.conversations.insert({
        id: conversationId,
        workspaceId,
        contactId: contact.id,
        channel: "whatsapp",
        status: index === 0 ? "open" : "pending",
        escalatedAt: null,
        createdAt: at(120),
        updatedAt: at(100 - CHAT.length),
      });
      for (const [i, [sender, content]] of CHAT.entries()) {
        await tx.messages.insert({ id: id(), workspaceId, conversationId, sender, content, createdAt: at(100 - i) });
      }
    }
    return { skus: ITEMS.map((i) => i.sku), contactIds: contacts.map((c) => c.id), conversationIds };
  });
}
