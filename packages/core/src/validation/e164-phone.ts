import { z } from "zod";

/**
 * E.164: a leading `+`, a non-zero country digit, 7 to 15 digits in all. Lead intake, contacts,
 * capabilities and privacy lookups all take a phone this way, so it lives below all of them.
 */
export const e164Phone = z
  .string({ error: "must be a string in E.164 format such as +56912345678" })
  .regex(/^\+[1-9]\d{6,14}$/, { error: "must be in E.164 format with a leading + (e.g. +56912345678)" });
