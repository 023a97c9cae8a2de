import { z } from "zod";
import { ValidationError, type FieldReason } from "../errors.js";
import { EVENT_TYPES, isEventType } from "../events/event-types.js";
import { reasonsFromZod } from "../validation.js";
import { PLAIN_REASONS } from "../validation-reasons.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";
import { checkDestination, type DestinationPolicy } from "./ssrf-guard.js";
import { SIGNATURE_SCHEMES, standardSecretKey, type SignatureScheme } from "./signing-schemes.js";

/** Shortest signing secret we accept: 24 characters (≈ 144 bits when random base64). */
export const MIN_SECRET_LENGTH = 24;
export const MAX_SECRET_LENGTH = 256;

/** The longest grace period a rotation may keep the previous secret signing: 7 days. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;
/** How long a rotation keeps the previous secret signing unless told otherwise: 24 hours. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;

const createShape = z.strictObject({
  url: z.string().max(2048),
  events: z.array(z.string()).min(1, "choose at least one event type"),
  /** Required for `vitrina`; for `standard-webhooks` Vitrina generates one when absent. */
  secret: z.string().optional(),
  signature_scheme: z.enum(SIGNATURE_SCHEMES).optional(),
});
const rotationShape = z.strictObject({
  grace_seconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(0, "must be 0 (switch at once) or more")
    .max(MAX_ROTATION_GRACE_SECONDS, `must be at most ${MAX_ROTATION_GRACE_SECONDS} (7 days)`),
});
const updateShape = createShape
  .omit({ signature_scheme: true })
  .partial()
  .extend({ enabled: z.boolean().optional(), rotation: rotationShape.optional() });

/** The create and update bodies of `/v1/webhooks` as JSON Schema (the OpenAPI document publishes them). */
export const subscriptionBodySchemas = { create: createShape, update: updateShape };

export type SubscriptionCreate = z.infer<typeof createShape>;
export type SubscriptionUpdate = z.infer<typeof updateShape>;
type CheckedFields = Partial<Pick<SubscriptionCreate, "url" | "events" | "secret">>;

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

const STANDARD_SECRET_REASON =
  "must be whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32)), or left out for Vitrina to generate one";

function secretReasons(secret: string, scheme: SignatureScheme): FieldReason[] {
  if (scheme === "standard-webhooks")
    return standardSecretKey(secret) === null ? [{ field: "secret", reason: STANDARD_SECRET_REASON }] : [];
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
async function fieldReasons(input: CheckedFields, check: UrlCheck, scheme: SignatureScheme): Promise<FieldReason[]> {
  return [
    ...(input.url === undefined ? [] : await urlReasons(input.url, check)),
    ...(input.events === undefined ? [] : eventReasons(input.events)),
    ...(input.secret === undefined ? [] : secretReasons(input.secret, scheme)),
  ];
}

/** Each of url, events and secret that has the right type, so its own checks can run. */
function wellTypedFields(body: unknown): CheckedFields {
  if (typeof body !== "object" || body === null) return {} as CheckedFields;
  const fields = {} as CheckedFields;
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
async function parseSubscription<T extends CheckedFields>(
  shape: z.ZodType<T>,
  body: unknown,
  check: UrlCheck,
  what: string,
  /** Judges the secret: each scheme has its own format. */
  scheme: SignatureScheme,
  extraReasons: (input: T | null) => FieldReason[],
): Promise<T> {
  const parsed = shape.safeParse(body, PLAIN_REASONS);
  const input = parsed.success ? parsed.data : null;
  const reasons = [
    ...(parsed.success ? [] : reasonsFromZod(parsed.error)),
    ...(await fieldReasons(input ?? wellTypedFields(body), check, scheme)),
    ...extraReasons(input),
  ];
  if (!parsed.success || reasons.length > 0)
    throw new ValidationError(`${what} is invalid`, reasons, parsed.success ? {} : { cause: parsed.error });
  return parsed.data;
}

/** The scheme a create body asks for when it says (`vitrina` when it doesn't), to judge its secret. */
function requestedScheme(body: unknown): SignatureScheme {
  const asked = typeof body === "object" && body !== null ? (body as Record<string, unknown>).signature_scheme : null;
  return asked === "standard-webhooks" ? asked : "vitrina";
}

export async function parseSubscriptionCreate(
  body: unknown,
  check: UrlCheck,
): Promise<SubscriptionCreate & { signature_scheme: SignatureScheme }> {
  const scheme = requestedScheme(body);
  const input = await parseSubscription(createShape, body, check, "webhook subscription", scheme, (input) =>
    // Only a Standard Webhooks secret has a format Vitrina can generate for the receiver.
    input !== null && input.secret === undefined && scheme === "vitrina"
      ? [{ field: "secret", reason: "is required for the vitrina scheme; e.g. `openssl rand -hex 32`" }]
      : [],
  );
  return { ...input, signature_scheme: scheme, events: [...new Set(input.events)] };
}

/**
 * An update of a subscription signed under `scheme` (its secret is judged by that scheme). The
 * scheme itself can't change: a receiver verifies one scheme, so switching would break it at once.
 */
export async function parseSubscriptionUpdate(
  body: unknown,
  check: UrlCheck,
  scheme: SignatureScheme,
): Promise<SubscriptionUpdate> {
  const immutable =
    typeof body === "object" && body !== null && "signature_scheme" in body
      ? [{ field: "signature_scheme", reason: "can't change after creation; create a new subscription instead" }]
      : [];
  const input = await parseSubscription(
    updateShape,
    typeof body === "object" && body !== null && immutable.length > 0 ? withoutScheme(body) : body,
    check,
    "webhook subscription update",
    scheme,
    (input) => [
      ...immutable,
      ...(input?.rotation !== undefined && input.secret === undefined
        ? [{ field: "rotation", reason: "goes with a new secret; give secret too" }]
        : []),
    ],
  );
  return input.events === undefined ? input : { ...input, events: [...new Set(input.events)] };
}

function withoutScheme(body: object): object {
  const { signature_scheme: _scheme, ...rest } = body as Record<string, unknown>;
  return rest;
}
