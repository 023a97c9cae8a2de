import { ValidationError } from "../errors.js";
import { queryWholeNumber } from "../http/query-number.js";

export const DEFAULT_ADMIN_PAGE_SIZE = 20;
export const MAX_ADMIN_PAGE_SIZE = 100;

/** A page as the webhook lists give it, plus `next_cursor` (the `starting_after` of the next page, or null). */
export interface AdminPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

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

/** Builds the page from `limit + 1` fetched rows: the extra row only says there is more. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  view: (row: R) => T,
  cursorOf: (row: R) => string,
): AdminPage<T> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  return {
    object: "list",
    data: page.map(view),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? cursorOf(last) : null,
  };
}
