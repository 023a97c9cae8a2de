import { z } from "zod";
import { defineCapability } from "../definition.js";
import { DEFAULT_LIMITS, optionalText } from "./schema-parts.js";

export const contactsSearch = defineCapability({
  name: "contacts.search",
  version: "1.0.0",
  summary: "Looks up workspace contacts by name, phone or email.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["customers:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({
    query: z
      .string()
      .min(1)
      .describe(
        `Part of a name, email or phone number; at most ${DEFAULT_LIMITS.contactsSearch} contacts are returned`,
      ),
  }),
  output: z.array(z.strictObject({ name: optionalText, phone: optionalText, email: optionalText })),
  idempotency: { required: false, strategy: "none" },
  async run({ storage, workspaceId }, { query }) {
    const contacts = await storage.contacts.search(workspaceId, query, { limit: DEFAULT_LIMITS.contactsSearch });
    return { output: contacts.map((c) => ({ name: c.name, phone: c.phoneE164, email: c.email })) };
  },
});
