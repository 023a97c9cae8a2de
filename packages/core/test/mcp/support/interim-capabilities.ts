import {
  ForbiddenError,
  NotFoundError,
  hasRequiredScopes,
  parseOrThrow,
  type CapabilitySource,
  type Storage,
} from "@vitrina/core";
import { capabilityInputs, interimCapabilityDescriptor, type CapabilityName } from "../../../src/mcp/interim-capability-descriptors.js";

/**
 * A stand-in for the agent runtime until the capability registry lands on main: the same contract
 * (validate input, check scopes, return `{ output, provenance }`) over the real storage for contacts
 * and conversations, and over a fixed catalog for products and stock. Delete when `vitrina.capabilities`
 * is wired into `mcpRoutes`.
 */
export const DEMO_CATALOG = [
  { sku: "DEP-101", name: "Departamento 101, 2D2B", price: 98_000_000, currency: "CLP", stock: 3, source: "native" },
  { sku: "DEP-202", name: "Departamento 202, 3D2B", price: 125_000_000, currency: "CLP", stock: 0, source: "native" },
  { sku: "EST-01", name: "Estacionamiento", price: 9_500_000, currency: "CLP", stock: 12, source: "native" },
];

export function interimCapabilities(storage: Storage, observedAt = () => new Date().toISOString()): CapabilitySource & { calls: string[] } {
  const calls: string[] = [];
  const provenance = () => ({ source: "service_native", observedAt: observedAt(), freshness: "live", authoritative: false, fallbackUsed: false });
  const run: Record<string, (workspaceId: string, input: any) => Promise<unknown>> = {
    async "contacts.get"(workspaceId, { contact_id }) {
      const c = await storage.contacts.get(workspaceId, contact_id);
      if (c === null) throw new NotFoundError(`contact ${contact_id} does not exist`);
      return { name: c.name, phone: c.phoneE164, email: c.email, tags: c.tags, score: c.score, ltv: c.ltv };
    },
    async "contacts.search"(workspaceId, { query }) {
      const c = query.startsWith("+") ? await storage.contacts.findByPhone(workspaceId, query) : await storage.contacts.findByEmail(workspaceId, query);
      return c === null ? [] : [{ name: c.name, phone: c.phoneE164, email: c.email }];
    },
    async "conversations.history"(workspaceId, { conversation_id, limit }) {
      const conversation = await storage.conversations.get(workspaceId, conversation_id);
      if (conversation === null) throw new NotFoundError(`conversation ${conversation_id} does not exist`);
      const rows = await storage.messages.listByConversation(conversation_id, { limit: limit ?? 50 });
      return rows.map((m) => ({ sender: m.sender, content: m.content, created_at: m.createdAt }));
    },
    async "catalog.search"(_workspaceId, { search, limit }) {
      const term = (search ?? "").toLowerCase();
      return DEMO_CATALOG.filter((p) => p.sku.toLowerCase().includes(term) || p.name.toLowerCase().includes(term)).slice(0, limit ?? 20);
    },
    async "inventory.check"(_workspaceId, { sku }) {
      const item = DEMO_CATALOG.find((p) => p.sku === sku);
      if (item === undefined) return { found: false, sku };
      return { found: true, sku, name: item.name, source: item.source, stock: item.stock, available: item.stock > 0, availability: item.stock > 0 ? "in_stock" : "out_of_stock", ambiguous: false, matches: [] };
    },
  };
  return {
    calls,
    descriptor: interimCapabilityDescriptor,
    async invoke(name, input, { principal }) {
      calls.push(name);
      const d = interimCapabilityDescriptor(name);
      if (d === undefined || run[name] === undefined) throw new NotFoundError(`capability ${name} does not exist`);
      if (!hasRequiredScopes(principal, { scopes: d.requiredScopes, match: d.scopeMatch })) throw new ForbiddenError("insufficient_scope", `${name} needs ${d.requiredScopes.join(", ")}`);
      const parsed = parseOrThrow(capabilityInputs[name as CapabilityName], input, `${name} input`);
      return { output: await run[name]!(principal.workspaceId, parsed), provenance: provenance() };
    },
  };
}
