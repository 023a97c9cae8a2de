import { z } from "zod";
import { ValidationError, type FieldReason } from "../errors.js";
import { EVENT_TYPES, isEventType } from "../events/event-types.js";
import { reasonsFromZod } from "../validation.js";
import { PLAIN_REASONS } from "../validation-reasons.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";
import { checkDestination, type DestinationPolicy } from "./ssrf-guard.js";

/** Shortest signing secret we accept: 24 characters (≈ 144 bits when random base64). */
export const MIN_SECRET_LENGTH = 24;
export const MAX_SECRET_LENGTH = 256;

const createShape = z.strictObject({
  url: z.string().max(2048),
  events: z.array(z.string()).min(1, "choose at least one event type"),
  secret: z.string(),
});
const updateShape = createShape.partial().extend({ enabled: z.boolean().optional() });

/** The create and update bodies of `/v1/webhooks` as JSON Schema (the OpenAPI document publishes them). */
export const subscriptionBodySchemas = { create: createShape, update: updateShape };

export type SubscriptionCreate = z.infer<typeof createShape>;
export type SubscriptionUpdate = z.infer<typeof updateShape>;

/** How a subscription's URL is judged: the SSRF guard, its DNS check bounded by a deadline. */
export interface UrlCheck {
  destinations: DestinationPolicy;
  /** How long the guard (its DNS lookup, really) may take before the URL is refused. */
  timeoutMs: number;
  /** Told when the deadline passed, so the service can log it with the request's context. */
  onTimeout: (host: string) => void;
}

async function urlReasons(value: string, check: UrlCheck): Promise<FieldReason[]> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ field: "url", reason: "is not an absolute URL (e.g. https://erp.example.com/hooks/vitrina)" }];
  }
  // A nameserver that never answers (hostile or broken) held the API request open for good: the
  // caller gets a refusal it can act on instead, like any other DNS failure of the guard.
  // Past the deadline, a lookup still waiting for a free slot in the resolver is dropped (the signal).
  const refused = await withinDeadline(
    (signal) => checkDestination(url, check.destinations, { signal }),
    check.timeoutMs,
  );
  if (refused === TIMED_OUT) {
    check.onTimeout(url.hostname);
    const reason = `${url.hostname} did not resolve within ${check.timeoutMs} ms; check its DNS and try again`;
    return [{ field: "url", reason }];
  }
  return refused === null ? [] : [{ field: "url", reason: refused }];
}

function eventReasons(events: string[]): FieldReason[] {
  return events.flatMap((name, i) =>
    isEventType(name)
      ? []
      : [{ field: `events.${i}`, reason: `unknown event type "${name}"; known: ${EVENT_TYPES.join(", ")}` }],
  );
}

function secretReasons(secret: string): FieldReason[] {
  if (secret.length < MIN_SECRET_LENGTH) {
    return [
      {
        field: "secret",
        reason: `must be at least ${MIN_SECRET_LENGTH} characters; use a random value such as \`openssl rand -hex 32\``,
      },
    ];
  }
  if (secret.length > MAX_SECRET_LENGTH)
    return [{ field: "secret", reason: `must be at most ${MAX_SECRET_LENGTH} characters` }];
  if (new Set(secret).size < 8) return [{ field: "secret", reason: "is too repetitive; use a random value" }];
  return [];
}

/** The URL, event and secret checks for the fields that are present. */
async function fieldReasons(input: SubscriptionUpdate, check: UrlCheck): Promise<FieldReason[]> {
  return [
    ...(input.url === undefined ? [] : await urlReasons(input.url, check)),
    ...(input.events === undefined ? [] : eventReasons(input.events)),
    ...(input.secret === undefined ? [] : secretReasons(input.secret)),
  ];
}

/** Each of url, events and secret that has the right type, so its own checks can run. */
function wellTypedFields(body: unknown): SubscriptionUpdate {
  if (typeof body !== "object" || body === null) return {};
  const fields: SubscriptionUpdate = {};
  for (const key of ["url", "events", "secret"] as const) {
    const parsed = createShape.shape[key].safeParse((body as Record<string, unknown>)[key]);
    if (parsed.success) Object.assign(fields, { [key]: parsed.data });
  }
  return fields;
}

/**
 * Checks the shape and every field, and reports all problems at once (422 `invalid_payload` with
 * `reasons`): an unknown key or a mistyped field doesn't hide a refused URL or a short secret.
 */
async function parseSubscription<T extends SubscriptionUpdate>(
  shape: z.ZodType<T>,
  body: unknown,
  check: UrlCheck,
  what: string,
): Promise<T> {
  const parsed = shape.safeParse(body, PLAIN_REASONS);
  const reasons = [
    ...(parsed.success ? [] : reasonsFromZod(parsed.error)),
    ...(await fieldReasons(parsed.success ? parsed.data : wellTypedFields(body), check)),
  ];
  if (!parsed.success || reasons.length > 0)
    throw new ValidationError(`${what} is invalid`, reasons, parsed.success ? {} : { cause: parsed.error });
  return parsed.data;
}

export async function parseSubscriptionCreate(body: unknown, check: UrlCheck): Promise<SubscriptionCreate> {
  const input = await parseSubscription(createShape, body, check, "webhook subscription");
  return { ...input, events: [...new Set(input.events)] };
}

export async function parseSubscriptionUpdate(body: unknown, check: UrlCheck): Promise<SubscriptionUpdate> {
  const input = await parseSubscription(updateShape, body, check, "webhook subscription update");
  return input.events === undefined ? input : { ...input, events: [...new Set(input.events)] };
}
