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

export { DEFAULT_LIMITS } from "./schema-parts.js";
