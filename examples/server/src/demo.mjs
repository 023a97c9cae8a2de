// Builds the demo: a Vitrina over the configured storage, with one workspace, its owner, a
// connector and a messaging transport that logs instead of sending. Used by main.mjs and tests.
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { consoleLogger, createVitrina, SCOPES } from "@vitrina/core";
import { MIN_SECRET_LENGTH } from "@vitrina/core/webhooks";
import { generateOAuthSigningKey } from "@vitrina/core/oauth";
import { demoConsentPage, logMessagingTransport, seedDemoData } from "@vitrina/core/demo";
import { demoConsoleOptions, vitrinaConsole } from "@vitrina/console";
import { nodeWebhookOptions, nodeWhatsAppOptions, secretKeyFromEnv, storageFromEnv } from "@vitrina/http-node";
import { demoCredentialsPath } from "../../demo-credentials.mjs";
import {
  demoWhatsAppSecrets,
  putDemoWhatsAppChannel,
  rememberingSentMessages,
  withDemoSentMessages,
} from "./demo-whatsapp.mjs";

export const DEMO_OWNER = "demo-owner";
/** Fixed, so a restart on persistent storage finds the same demo workspace. */
export const DEMO_WORKSPACE_ID = "00000000-0000-4000-8000-0000000000d1";
/** This phone is always opted out in the demo, to show a blocked first message. */
export const DEMO_OPTED_OUT_PHONE = "+56900000000";

/**
 * The transport for workspaces whose WhatsApp channel has no access token: it logs instead of
 * sending, and remembers each message's provider id for the tour (see demo-whatsapp.mjs). With
 * WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID the demo workspace's channel sends through the
 * Cloud API instead.
 */
function messagingFromEnv(env, logger) {
  const transport = rememberingSentMessages(logMessagingTransport(logger));
  const cloud = Boolean(env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID);
  return {
    transport,
    name: cloud ? "WhatsApp Cloud API (the demo workspace's channel)" : "demo (logs, sends nothing)",
  };
}

/**
 * Creates the demo workspace and connector on first start. On a later start over persistent
 * storage the secret can't be shown again (only its sealed form is stored), so the demo rotates
 * it and prints the new one: the documented way to get a usable secret after a restart.
 */
async function ensureDemoConnector(vitrina) {
  const actor = { userId: DEMO_OWNER };
  let workspace = await vitrina.storage.workspaces.get(DEMO_WORKSPACE_ID);
  if (workspace === null) {
    workspace = await vitrina.workspaces.create({
      id: DEMO_WORKSPACE_ID,
      name: "Demo Inmobiliaria",
      ownerUserId: DEMO_OWNER,
    });
    // A small real-estate catalog, contacts and conversations, so every capability answers something.
    await seedDemoData(vitrina, workspace.id);
  }
  const existing = (await vitrina.connectors.list(actor, { workspaceId: workspace.id })).find(
    (c) => c.systemId === "demo-crm",
  );
  if (existing) {
    const { connector, secret } = await vitrina.connectors.rotate(actor, { connectorId: existing.id });
    return { workspace, connector, secret, rotated: true };
  }
  const { connector, secret } = await vitrina.connectors.create(actor, {
    workspaceId: workspace.id,
    name: "Demo CRM",
    systemId: "demo-crm",
  });
  return { workspace, connector, secret, rotated: false };
}

/**
 * The OAuth signing key: VITRINA_OAUTH_SIGNING_KEY (a private JWK as JSON), else on persistent
 * storage a key file next to the data (so issued tokens survive a restart), else one per run.
 */
async function oauthSigningKey(configured, env) {
  if (env.VITRINA_OAUTH_SIGNING_KEY) return { privateJwk: JSON.parse(env.VITRINA_OAUTH_SIGNING_KEY) };
  if (!configured.persistent) return undefined;
  const file = join(configured.dataDir, "oauth-signing-key.json");
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing) return { privateJwk: JSON.parse(existing) };
  await mkdir(configured.dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(await generateOAuthSigningKey()), { mode: 0o600, flag: "wx" }).catch(
    () => undefined,
  );
  return { privateJwk: JSON.parse(await readFile(file, "utf8")) };
}

/** OAuth for MCP clients: no login, every authorization acts as the demo owner after a consent page. */
async function oauthOptions(configured, env) {
  const base = env.VITRINA_PUBLIC_URL?.replace(/\/$/, "");
  return {
    authorize: demoConsentPage({ userId: DEMO_OWNER, workspaceId: DEMO_WORKSPACE_ID }),
    ...(base ? { publicUrl: `${base}/mcp`, issuer: base } : {}),
    signingKey: await oauthSigningKey(configured, env),
  };
}

const CANONICAL_STYLES = ["none", "underscore", "dotted"];

/**
 * The MCP options the environment may set: browser origins allowed besides the server's own
 * (VITRINA_MCP_ALLOWED_ORIGINS, comma-separated), the canonical capability names as extra tools
 * (VITRINA_MCP_CANONICAL_TOOL_NAMES), and the public URL whose origin is the server's own.
 */
export function mcpOptionsFromEnv(env) {
  const allowedOrigins = (env.VITRINA_MCP_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);
  const canonicalToolNames = env.VITRINA_MCP_CANONICAL_TOOL_NAMES?.trim() || "none";
  if (!CANONICAL_STYLES.includes(canonicalToolNames)) {
    throw new Error(
      `VITRINA_MCP_CANONICAL_TOOL_NAMES must be one of ${CANONICAL_STYLES.join(", ")}, not "${canonicalToolNames}"`,
    );
  }
  const publicBaseUrl = env.VITRINA_PUBLIC_URL?.replace(/\/$/, "");
  return { allowedOrigins, canonicalToolNames, ...(publicBaseUrl ? { publicBaseUrl } : {}) };
}

/**
 * The opt-in capability surfaces the environment turns on: `VITRINA_REST=1` (every capability at
 * /v1/rest/{capability}) and `VITRINA_A2A=1` (the agent card and SendMessage at /a2a).
 */
export function surfacesFromEnv(env) {
  const on = (name) => env[name] === "1" || env[name] === "true";
  return {
    ...(on("VITRINA_REST") && { rest: { enabled: true } }),
    ...(on("VITRINA_A2A") && { a2a: { enabled: true } }),
  };
}

/** Every scope the MCP tools use; the demo API key holds them all. */
/** The demo key may do everything: the five capability scopes, MCP's write tools and the webhooks API. */
export const DEMO_API_KEY_SCOPES = [...SCOPES];

/**
 * The demo's console: info and above, so the worker's 30-second heartbeat (debug) doesn't bury the
 * tour's output; `VITRINA_LOG_LEVEL=debug` shows everything.
 */
function demoLogger(env) {
  if (env.VITRINA_LOG_LEVEL === "debug") return consoleLogger;
  // No `child`: Vitrina then wraps this logger itself, so request loggers keep the filter.
  return { debug() {}, info: consoleLogger.info, warn: consoleLogger.warn, error: consoleLogger.error };
}

export async function createDemo({
  env = process.env,
  logger = demoLogger(env),
  memory = false,
  credentialsPath = demoCredentialsPath(env),
} = {}) {
  const configured = await storageFromEnv({ memory, env, logger });
  const secretKey = configured.persistent
    ? await secretKeyFromEnv(configured.dataDir, env)
    : (env.VITRINA_SECRET_KEY ?? randomBytes(32).toString("base64"));
  const messaging = messagingFromEnv(env, logger);
  const oauth = await oauthOptions(configured, env);
  const surfaces = surfacesFromEnv(env);
  const vitrina = createVitrina({
    storage: configured.storage,
    messaging: messaging.transport,
    secretBox: secretKey,
    logger,
    // Demo mode: webhook receivers on this machine (http://127.0.0.1:8788) are allowed; every
    // other private address is still refused, and DNS names are checked after resolution.
    webhooks: nodeWebhookOptions({ allowInsecureLoopback: env.VITRINA_DEMO_ALLOW_LOOPBACK !== "false" }),
    // Sends to the WhatsApp Cloud API on undici's request API rather than fetch (cheaper per send).
    whatsapp: nodeWhatsAppOptions(),
    oauth,
    // GET /healthz and /readyz for probes (see the README's "Operating Vitrina").
    health: true,
    mcp: mcpOptionsFromEnv(env),
    ...surfaces,
    // The web console at /console: a one-button page signs in as the demo owner (no password).
    console: vitrinaConsole(demoConsoleOptions({ userId: DEMO_OWNER, workspaceId: DEMO_WORKSPACE_ID })),
  });
  const { workspace, connector, secret, rotated } = await ensureDemoConnector(vitrina);
  const apiKey = await demoApiKey(vitrina, workspace.id, credentialsPath);
  const optOuts = [
    DEMO_OPTED_OUT_PHONE,
    ...(env.VITRINA_DEMO_OPT_OUT_PHONES ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  ];
  for (const phoneE164 of optOuts) await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164 });
  const whatsapp = await putDemoWhatsAppChannel(
    vitrina,
    workspace.id,
    await demoWhatsAppSecrets(credentialsPath, env),
    env,
  );
  return {
    vitrina,
    /** What `serveVitrina` serves: core's handler with the demo-only sent-messages route in front. */
    handler: withDemoSentMessages(vitrina.handler, { apiKey, sent: messaging.transport.sent }),
    whatsapp,
    workspace,
    connector,
    connectorSecret: secret,
    secretRotated: rotated,
    apiKey,
    optOuts,
    messagingName: messaging.name,
    storageName: configured.description,
    /** The opt-in surfaces turned on (`rest`, `a2a`), as main.mjs prints them. */
    surfaces,
  };
}

/**
 * The demo's all-scope API key: the one in the credentials file while it still authenticates for the
 * demo workspace with every scope (a restart on the same data), else a new one. Issuing one at every
 * start left a pile of live all-scope keys behind; a stored key can't be shown again, so the file is
 * the only place to find it.
 */
export async function demoApiKey(vitrina, workspaceId, credentialsPath) {
  const previous = await readFile(credentialsPath, "utf8")
    .then(JSON.parse)
    .catch(() => null);
  if (typeof previous?.apiKey === "string") {
    const request = new Request("http://demo.invalid/", { headers: { authorization: `Bearer ${previous.apiKey}` } });
    const principal = await vitrina.authenticate(request).catch(() => null);
    const complete = DEMO_API_KEY_SCOPES.every((scope) => principal?.scopes.includes(scope));
    if (principal?.workspaceId === workspaceId && complete) return previous.apiKey;
  }
  const { secret } = await vitrina.apiKeys.issue({ userId: DEMO_OWNER }, workspaceId, {
    name: "Demo API key",
    scopes: DEMO_API_KEY_SCOPES,
  });
  return secret;
}

/**
 * A signing secret for the local webhook receiver: the one already in the credentials file (so a
 * restart keeps existing subscriptions and a running receiver valid), else a fresh random one.
 * The receiver reads it from the same file; the printed subscribe command carries it.
 */
export async function demoWebhookSecret(credentialsPath) {
  const previous = await readFile(credentialsPath, "utf8")
    .then(JSON.parse)
    .catch(() => null);
  if (typeof previous?.webhookSecret === "string" && previous.webhookSecret.length >= MIN_SECRET_LENGTH)
    return previous.webhookSecret;
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

/** The credentials the examples read (from `.vitrina/demo-credentials.json` by default). */
export function demoCredentials(demo, baseUrl, webhookSecret) {
  const { whatsapp } = demo;
  return {
    workspaceId: demo.workspace.id,
    connectorId: demo.connector.id,
    connectorSecret: demo.connectorSecret,
    leadIntakeUrl: `${baseUrl}/functions/v1/lead-intake`,
    apiKey: demo.apiKey,
    mcpUrl: `${baseUrl}/mcp`,
    webhooksUrl: `${baseUrl}/v1/webhooks`,
    webhookSecret,
    whatsappWebhookUrl: `${baseUrl}${demo.vitrina.whatsapp.webhookPath}`,
    whatsappPhoneNumberId: whatsapp.phoneNumberId,
    whatsappAppSecret: whatsapp.appSecret,
    whatsappVerifyToken: whatsapp.verifyToken,
  };
}

/**
 * Writes the credentials to a new file created 0600 and renames it over `path`. Rewriting a
 * pre-existing file in place put the new secrets in it while it was still readable by others (until
 * the chmod), and into any descriptor another user opened on it before (a chmod doesn't revoke one).
 */
export async function writeDemoCredentials(path, credentials) {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const file = await open(partial, "wx", 0o600);
  try {
    await file.chmod(0o600); // exactly 0600 whatever the umask, before any secret is in it
    await file.writeFile(`${JSON.stringify(credentials, null, 2)}\n`);
    await file.close();
    await rename(partial, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}
