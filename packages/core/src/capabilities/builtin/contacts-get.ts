import { z } from "zod";
import { NotFoundError } from "../../errors.js";
import { defineCapability } from "../definition.js";
import { optionalNumber, optionalText, requiredId } from "./schema-parts.js";

export const contactsGet = defineCapability({
  name: "contacts.get",
  version: "1.0.0",
  summary: "Returns the full record of one contact.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["customers:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({ contact_id: requiredId("contact") }),
  output: z.strictObject({
    name: optionalText,
    phone: optionalText,
    email: optionalText,
    tags: z.array(z.string()).nullable().optional(),
    score: optionalNumber,
    ltv: optionalNumber,
  }),
  idempotency: { required: false, strategy: "none" },
  async run({ storage, workspaceId }, { contact_id }) {
    const contact = await storage.contacts.get(workspaceId, contact_id);
    if (contact === null) throw new NotFoundError(`contact ${contact_id} does not exist in this workspace`);
    const { name, phoneE164: phone, email, tags, score, ltv } = contact;
    return { output: { name, phone, email, tags, score, ltv } };
  },
});
