/**
 * The one shape of every list Vitrina answers (webhook subscriptions and deliveries, connectors,
 * leads, API keys, members, refusals): Stripe's `{ object: "list", data, has_more }`, plus
 * `next_cursor`, the cursor that continues in the direction the page was read (the
 * `starting_after` of the next older page, or for a page read with `ending_before` the
 * `ending_before` of the next newer one), null when `has_more` is false.
 */
export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A list that is always whole (members, API keys, a refusal ring): no page follows. */
export function wholeList<T>(data: T[]): ListPage<T> {
  return { object: "list", data, has_more: false, next_cursor: null };
}

/**
 * Builds the page from `limit + 1` fetched rows, in the order they are shown: the extra row only
 * says there is more. `continuesFrom` is the shown row the next page's cursor names (the last for
 * an older page, the first for a newer one read with `ending_before`).
 */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  view: (row: R) => T,
  cursorOf: (row: R) => string,
  continuesFrom: "last" | "first" = "last",
): ListPage<T> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const edge = continuesFrom === "last" ? page[page.length - 1] : page[0];
  return {
    object: "list",
    data: page.map(view),
    has_more: hasMore,
    next_cursor: hasMore && edge !== undefined ? cursorOf(edge) : null,
  };
}
