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
  const limit = queryWholeNumber(url.searchParams, "limit");
  const startingAfter = url.searchParams.get("starting_after") ?? undefined;
  if (limit === undefined) return { limit: DEFAULT_ADMIN_PAGE_SIZE, startingAfter };
  if (limit < 1 || limit > MAX_ADMIN_PAGE_SIZE) {
    throw new ValidationError("query is invalid", [
      { field: "limit", reason: `must be an integer from 1 to ${MAX_ADMIN_PAGE_SIZE}` },
    ]);
  }
  return { limit, startingAfter };
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
