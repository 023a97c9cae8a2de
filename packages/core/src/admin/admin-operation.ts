import { bearerOperation, type OperationDoc } from "../http/route-doc.js";
import { ADMIN_READ, ADMIN_WRITE } from "./admin-caller.js";

/** `?limit=&starting_after=` of the paged admin lists. */
export const PAGE_PARAMETERS = [
  { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
  { name: "starting_after", in: "query", schema: { type: "string" } },
];

/** A JSON body's refusals: malformed (400, always listed), too large, not JSON, invalid. */
export const ADMIN_BODY_ERRORS = [413, 415, 422];

/**
 * An admin API operation: API keys with `admin:read` (reads) or `admin:write` (changes), or a
 * console session whose role allows it.
 */
export const adminOperation = (access: "read" | "write", doc: Parameters<typeof bearerOperation>[2]): OperationDoc =>
  bearerOperation("admin", access === "read" ? ADMIN_READ : ADMIN_WRITE, doc);
