import { z } from "zod";
import { ValidationError, type FieldReason } from "../errors.js";
import { EVENT_TYPES, isEventType } from "../events/event-types.js";
import { parseOrThrow } from "../validation.js";
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
    isEventType(name) ? [] : [{ field: `events.${i}`, reason: `unknown event type "${name}"; known: ${EVENT_TYPES.join(", ")}` }],
  );
}

function secretReasons(secret: string): FieldReason[] {
  if (secret.length < MIN_SECRET_LENGTH) {
    return [{ field: "secret", reason: `must be at least ${MIN_SECRET_LENGTH} characters; use a random value such as \`openssl rand -hex 32\`` }];
  }
  if (secret.length > MAX_SECRET_LENGTH) return [{ field: "secret", reason: `must be at most ${MAX_SECRET_LENGTH} characters` }];
  if (new Set(secret).size < 8) return [{ field: "secret", reason: "is too repetitive; use a random value" }];
  return [];
}

/** Checks every field and reports them all at once (422 `invalid_payload` with `reasons`). */
async function checkFields(input: SubscriptionUpdate, policy: DestinationPolicy, what: string): Promise<void> {
  const reasons = [
    ...(input.url === undefined ? [] : await urlReasons(input.url, policy)),
    ...(input.events === undefined ? [] : eventReasons(input.events)),
    ...(input.secret === undefined ? [] : secretReasons(input.secret)),
  ];
  if (reasons.length > 0) throw new ValidationError(`${what} is invalid`, reasons);
}

export async function parseSubscriptionCreate(body: unknown, policy: DestinationPolicy): Promise<SubscriptionCreate> {
  const input = parseOrThrow(createShape, body, "webhook subscription");
  await checkFields(input, policy, "webhook subscription");
  return { ...input, events: [...new Set(input.events)] };
}

export async function parseSubscriptionUpdate(body: unknown, policy: DestinationPolicy): Promise<SubscriptionUpdate> {
  const input = parseOrThrow(updateShape, body, "webhook subscription update");
  await checkFields(input, policy, "webhook subscription update");
  return input.events === undefined ? input : { ...input, events: [...new Set(input.events)] };
}
