import type { CapabilityDefinition } from "../definition.js";
import { catalogSearch } from "./catalog-search.js";
import { contactsGet } from "./contacts-get.js";
import { contactsSearch } from "./contacts-search.js";
import { contactsUpdate } from "./contacts-update.js";
import { conversationsHistory } from "./conversations-history.js";
import { inventoryCheck } from "./inventory-check.js";

/** The six canonical capabilities of the spec, in the spec's order. */
export const BUILTIN_CAPABILITIES: readonly CapabilityDefinition[] = [
  catalogSearch,
  contactsGet,
  contactsSearch,
  contactsUpdate,
  conversationsHistory,
  inventoryCheck,
] as CapabilityDefinition[];

/** The built-in capabilities by name: what `vitrina.capabilities.invoke` types inputs and outputs from. */
export interface BuiltinCapabilities {
  "catalog.search": typeof catalogSearch;
  "contacts.get": typeof contactsGet;
  "contacts.search": typeof contactsSearch;
  "contacts.update": typeof contactsUpdate;
  "conversations.history": typeof conversationsHistory;
  "inventory.check": typeof inventoryCheck;
}

export { DEFAULT_LIMITS } from "./schema-parts.js";
