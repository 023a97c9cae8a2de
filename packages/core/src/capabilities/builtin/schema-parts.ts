import { z } from "zod";

/** Field shapes the spec's output tables repeat: "string or null", "number or null", none required. */
export const optionalText = z.string().nullable().optional();
export const optionalNumber = z.number().nullable().optional();
export const textOrList = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .optional();
export const requiredId = (what: string) => z.string().min(1).describe(`Id of the ${what}`);

/** Default page sizes when the caller gives no `limit` (the spec leaves them open). */
export const DEFAULT_LIMITS = { catalogSearch: 20, contactsSearch: 20, conversationsHistory: 50 } as const;
