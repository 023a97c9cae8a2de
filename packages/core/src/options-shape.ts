import { VitrinaError } from "./errors.js";

/**
 * The shape of every `createVitrina` option, checked before anything is wired: a hook given where an
 * object belongs (or the other way round) otherwise surfaces much later as a 500 at the first request
 * that calls it (`options.signIn is not a function`). Only kinds are checked here; ranges and formats
 * stay with the feature that owns them (`basePath` in mount.ts, limits in each feature's options).
 * Unknown keys are let through: a shared `vitrina.config` carries the CLI's own keys (`database`).
 */
type Kind = "string" | "number" | "boolean" | "function" | "object" | "array";
type Shape =
  Kind | { kinds: Kind[]; fields?: Record<string, Shape>; required?: string[]; items?: Shape; literals?: unknown[] };

const fields = (shape: Record<string, Shape>, required: string[] = []): Shape => ({
  kinds: ["object"],
  fields: shape,
  required,
});
/** An object whose listed members are functions: the ports (storage, transports, logger). */
const methods = (...names: string[]): Shape =>
  fields(Object.fromEntries(names.map((name) => [name, "function" as const])), names);
const arrayOf = (items: Shape): Shape => ({ kinds: ["array"], items });
const orFalse = (shape: Shape): Shape => withKinds(shape, [], [false]);
function withKinds(shape: Shape, kinds: Kind[], literals?: unknown[]): Shape {
  const base = typeof shape === "string" ? { kinds: [shape] } : shape;
  return { ...base, kinds: [...base.kinds, ...kinds], ...(literals && { literals }) };
}

const firstMessage = fields(
  {
    template: "string",
    language: "string",
    bodyParameters: "function",
    nameFallback: "string",
    oncePerContactWithinMs: "number",
  },
  ["template", "language"],
);

const optionShapes: Record<string, Shape> = {
  storage: methods("transaction", "ping", "close"),
  messaging: methods("send"),
  secretBox: withKinds(methods("seal", "open"), ["string"]),
  clock: methods("now"),
  ids: "function",
  logger: methods("debug", "info", "warn", "error"),
  basePath: "string",
  publicUrl: "string",
  headerPrefix: "string",
  health: withKinds(fields({ readyTimeoutMs: "number", maxHeartbeatAgeMs: "number" }), ["boolean"]),
  whatsapp: fields({ maxBodyBytes: "number", post: "function", fetch: "function" }),
  capabilities: fields({
    attemptLeaseMs: "number",
    mcpUrl: "string",
    catalogMaxAgeSeconds: "number",
    inventoryProviderTimeoutMs: "number",
    extra: arrayOf("object"),
    restUrl: "string",
  }),
  inventoryProviders: arrayOf(
    fields({ name: "string", authoritative: "boolean", checkStock: "function" }, ["name", "checkStock"]),
  ),
  policies: arrayOf("function"),
  authenticators: arrayOf("function"),
  webhooks: fields({
    allowInsecureLoopback: "boolean",
    allowPrivateNetworks: "boolean",
    resolveHost: "function",
    timeoutMs: "number",
    leaseMs: "number",
    concurrency: "number",
    perSubscriptionConcurrency: "number",
    batchSize: "number",
    retry: fields({ baseDelayMs: "number", maxDelayMs: "number", jitter: "number", random: "function" }),
    fetch: "function",
    send: "function",
    secretRotationGraceSeconds: "number",
    externalWorker: "boolean",
  }),
  quotes: fields({ vatRate: { kinds: ["number", "function"] } }),
  leadIntake: fields({
    maxBodyBytes: "number",
    toleranceMs: "number",
    consentClockSkewMs: "number",
    firstMessage,
    firstMessageRecovery: fields({ leaseMs: "number", lateSendWindowMs: "number", intervalMs: "number" }),
    verticals: "object",
    refusals: fields({
      keepPerConnector: "number",
      retentionDays: { kinds: ["number"], literals: [null] },
      perConnectorPerMinute: "number",
      totalPerMinute: "number",
    }),
  }),
  oauth: fields(
    {
      authorize: "function",
      publicUrl: "string",
      issuer: "string",
      additionalResources: arrayOf("string"),
      scopesSupported: arrayOf("string"),
      signingKey: fields({ privateJwk: "object", previousPublicJwks: arrayOf("object") }, ["privateJwk"]),
      accessTokenTtlSeconds: "number",
      refreshTokenTtlSeconds: "number",
      grantLifetimeSeconds: "number",
      refreshTokenReuseIntervalSeconds: "number",
      defaultScopes: arrayOf("string"),
      registration: fields({
        maxBodyBytes: "number",
        maxRedirectUris: "number",
        rateLimit: orFalse(fields({ burst: "number", perHour: "number", key: "function" }, ["burst", "perHour"])),
      }),
      codeTtlSeconds: "number",
      corsAllowOrigin: "string",
    },
    ["authorize"],
  ),
  mcp: fields({
    authenticate: "function",
    allowedOrigins: arrayOf("string"),
    enableFinancialTools: "boolean",
    canonicalToolNames: "string",
    publicBaseUrl: "string",
    maxBodyBytes: "number",
    quotes: "object",
    prices: "function",
  }),
  rest: fields({ enabled: "boolean" }, ["enabled"]),
  a2a: fields({ enabled: "boolean", name: "string", description: "string" }, ["enabled"]),
  // Its own options (`signIn`, `loginUrl`, …) are checked by `vitrinaConsole` in @vitrina/console.
  console: methods("mount"),
  retention: orFalse(
    fields({
      deliveriesDays: { kinds: ["number"], literals: [null] },
      leadPayloadsDays: { kinds: ["number"], literals: [null] },
      messageTextDays: { kinds: ["number"], literals: [null] },
      batchSize: "number",
      intervalMs: "number",
      timeBudgetMs: "number",
      extraSteps: arrayOf(fields({ kind: "string", run: "function" }, ["kind", "run"])),
    }),
  ),
};

const REQUIRED_OPTIONS = ["storage", "messaging", "secretBox"];

/** Throws `invalid_argument` naming the first option whose kind is wrong (`console.signIn`). */
export function checkOptionShapes(options: object): void {
  if (options === null || typeof options !== "object") throw invalidOption("options", "must be an object", options);
  checkConsoleMoved((options as { console?: unknown }).console);
  check(options, fields(optionShapes, REQUIRED_OPTIONS), "");
}

/**
 * The console left core for `@vitrina/console` (issue 42): code written before passes its options
 * object (`{ signIn }`) where a console surface belongs, and deserves to be told what to write now
 * rather than that `console.mount` is missing.
 */
function checkConsoleMoved(value: unknown): void {
  if (value === null || typeof value !== "object" || typeof (value as { mount?: unknown }).mount === "function") return;
  if (!Object.hasOwn(value, "signIn")) return;
  const reason =
    'takes the console surface now: `console: vitrinaConsole({ signIn, … })` with `import { vitrinaConsole } from "@vitrina/console"` (the console is its own package); a plain options object is no longer accepted';
  throw new VitrinaError("invalid_argument", `createVitrina: console ${reason}`, {
    reasons: [{ field: "console", reason }],
  });
}

function kindOf(value: unknown): Kind | "null" | "undefined" | "bigint" | "symbol" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as Kind;
}

function check(value: unknown, shape: Shape, path: string): void {
  const expected = typeof shape === "string" ? { kinds: [shape] } : shape;
  if (expected.literals?.includes(value)) return;
  const kind = kindOf(value);
  if (!expected.kinds.includes(kind as Kind)) throw invalidOption(path, describe(expected), value);
  if (kind === "array" && expected.items !== undefined)
    (value as unknown[]).forEach((item, index) => check(item, expected.items!, `${path}[${index}]`));
  if (kind !== "object" || expected.fields === undefined) return;
  const record = value as Record<string, unknown>;
  for (const name of expected.required ?? [])
    if (record[name] === undefined)
      throw invalidOption(join(path, name), `is required and ${describe(expected.fields[name]!)}`, undefined);
  for (const [name, fieldShape] of Object.entries(expected.fields)) {
    const field = record[name];
    if (field !== undefined) check(field, fieldShape, join(path, name));
  }
}

const join = (path: string, name: string) => (path === "" ? name : `${path}.${name}`);

function describe(shape: Shape): string {
  const expected = typeof shape === "string" ? { kinds: [shape] } : shape;
  const required = expected.required ?? [];
  const kinds = expected.kinds.map((kind) =>
    kind === "object" && required.length > 0
      ? `an object with ${required.join(", ")}`
      : `${kind === "object" || kind === "array" ? "an" : "a"} ${kind}`,
  );
  return `must be ${[...kinds, ...(expected.literals ?? []).map(String)].join(" or ")}`;
}

function invalidOption(field: string, expectation: string, value: unknown): VitrinaError {
  const got = kindOf(value);
  // The mistake item 5 of issue 46 saw: a whole option (`{ signIn }`) passed as one of its own members.
  const nested =
    got === "object" && Object.hasOwn(value as object, field.split(".").at(-1)!)
      ? `; it looks like the whole option, which has a ${field.split(".").at(-1)} of its own`
      : "";
  const reason = `${expectation} (got ${got === "object" ? "an object" : got === "array" ? "an array" : got})${nested}`;
  return new VitrinaError("invalid_argument", `createVitrina: ${field} ${reason}`, { reasons: [{ field, reason }] });
}
