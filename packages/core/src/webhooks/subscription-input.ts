import { z } from "zod";
import { ValidationError, type FieldReason } from "../errors.js";
import { EVENT_TYPES, isEventType } from "../events/event-types.js";
import { reasonsFromZod } from "../validation.js";
import { PLAIN_REASONS } from "../validation-reasons.js";
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

async function urlReasons(value: string, policy: DestinationPolicy): Promise<FieldReason[]> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ field: "url", reason: "is not an absolute URL (e.g. https://erp.example.com/hooks/vitrina)" }];
  }
  const refused = await checkDestination(url, policy);
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
async function fieldReasons(input: SubscriptionUpdate, policy: DestinationPolicy): Promise<FieldReason[]> {
  return [
    ...(input.url === undefined ? [] : await urlReasons(input.url, policy)),
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
  policy: DestinationPolicy,
  what: string,
): Promise<T> {
  const parsed = shape.safeParse(body, PLAIN_REASONS);
  const reasons = [
    ...(parsed.success ? [] : reasonsFromZod(parsed.error)),
    ...(await fieldReasons(parsed.success ? parsed.data : wellTypedFields(body), policy)),
  ];
  if (!parsed.success || reasons.length > 0)
    throw new ValidationError(`${what} is invalid`, reasons, parsed.success ? {} : { cause: parsed.error });
  return parsed.data;
}

export async function parseSubscriptionCreate(body: unknown, policy: DestinationPolicy): Promise<SubscriptionCreate> {
  const input = await parseSubscription(createShape, body, policy, "webhook subscription");
  return { ...input, events: [...new Set(input.events)] };
}

export async function parseSubscriptionUpdate(body: unknown, policy: DestinationPolicy): Promise<SubscriptionUpdate> {
  const input = await parseSubscription(updateShape, body, policy, "webhook subscription update");
  return input.events === undefined ? input : { ...input, events: [...new Set(input.events)] };
}
