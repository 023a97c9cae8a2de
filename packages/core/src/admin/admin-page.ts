import { ValidationError } from "../errors.js";
import { queryWholeNumber } from "../http/query-number.js";

export const DEFAULT_ADMIN_PAGE_SIZE = 20;
export const MAX_ADMIN_PAGE_SIZE = 100;

/** `?limit=&starting_after=` as the webhook lists read them; a bad limit names the field. */
export function adminPageOptions(url: URL): { limit: number; startingAfter?: string } {
  const limit = queryLimit(url.searchParams, MAX_ADMIN_PAGE_SIZE) ?? DEFAULT_ADMIN_PAGE_SIZE;
  const startingAfter = url.searchParams.get("starting_after") ?? undefined;
  return { limit, startingAfter };
}

/** `?limit=` as a whole number from 1 to `max`, or undefined when absent; anything else is refused naming `limit`. */
export function queryLimit(params: URLSearchParams, max: number): number | undefined {
  const limit = queryWholeNumber(params, "limit");
  if (limit !== undefined && (limit < 1 || limit > max)) {
    throw new ValidationError("query is invalid", [{ field: "limit", reason: `must be an integer from 1 to ${max}` }]);
  }
  return limit;
}
