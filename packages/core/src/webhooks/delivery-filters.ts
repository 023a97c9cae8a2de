import { ValidationError, type FieldReason } from "../errors.js";
import { EVENT_TYPES, isEventType } from "../events/event-types.js";
import type { DeliveryListOptions } from "../ports/webhook-storage.js";
import type { DeliveryStatus } from "../ports/webhook-records.js";
import { queryWholeNumber } from "../http/query-number.js";
import { TEST_EVENT_TYPE } from "./test-delivery.js";

const STATUSES: readonly DeliveryStatus[] = ["pending", "succeeded", "failed"];
/** Ids and cursors are short; a longer value is a mistake, refused before it reaches storage. */
const MAX_ID_LENGTH = 200;

/** What a caller may ask of a delivery history page (the route's query, the CLI's flags, an embedder). */
export interface DeliveryPageOptions {
  limit?: number;
  startingAfter?: string;
  endingBefore?: string;
  status?: string;
  eventType?: string;
  eventId?: string;
}

/**
 * The filters and cursor of a history page, checked: a status of `pending`, `succeeded` or
 * `failed`, a known event type, ids of at most 200 characters, and one cursor at most. Anything
 * else is `invalid_payload` naming the field (as the route names it: `event_type`, not `eventType`).
 */
export function checkedDeliveryFilters(options: DeliveryPageOptions): Omit<DeliveryListOptions, "limit"> {
  const reasons: FieldReason[] = [];
  const id = (value: string | undefined, field: string) => {
    if (value !== undefined && (value === "" || value.length > MAX_ID_LENGTH))
      reasons.push({ field, reason: `must be 1 to ${MAX_ID_LENGTH} characters` });
    return value;
  };
  const startingAfter = id(options.startingAfter, "starting_after");
  const endingBefore = id(options.endingBefore, "ending_before");
  const eventId = id(options.eventId, "event_id");
  if (startingAfter !== undefined && endingBefore !== undefined)
    reasons.push({ field: "ending_before", reason: "give starting_after or ending_before, not both" });
  const { status, eventType } = options;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    reasons.push({ field: "status", reason: `must be one of ${STATUSES.join(", ")}` });
  if (eventType !== undefined && eventType !== TEST_EVENT_TYPE && !isEventType(eventType))
    reasons.push({ field: "event_type", reason: `must be one of ${[...EVENT_TYPES, TEST_EVENT_TYPE].join(", ")}` });
  if (reasons.length > 0) throw new ValidationError("delivery filters are invalid", reasons);
  return {
    ...(startingAfter !== undefined && { startingAfter }),
    ...(endingBefore !== undefined && { endingBefore }),
    ...(status !== undefined && { status: status as DeliveryStatus }),
    ...(eventType !== undefined && { eventType }),
    ...(eventId !== undefined && { eventId }),
  };
}

/** `?limit=&starting_after=&ending_before=&status=&event_type=&event_id=` as page options (checked by the service). */
export function deliveryPageQuery(url: URL): DeliveryPageOptions {
  const params = url.searchParams;
  const text = (name: string) => params.get(name) ?? undefined;
  const limit = queryWholeNumber(params, "limit");
  return {
    ...(limit !== undefined && { limit }),
    ...Object.fromEntries(
      (
        [
          ["startingAfter", "starting_after"],
          ["endingBefore", "ending_before"],
          ["status", "status"],
          ["eventType", "event_type"],
          ["eventId", "event_id"],
        ] as const
      ).flatMap(([key, name]) => (text(name) === undefined ? [] : [[key, text(name)]])),
    ),
  };
}
