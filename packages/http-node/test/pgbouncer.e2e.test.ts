import pg from "pg";
import { signLead } from "@vitrina/client";
import { migrate } from "@vitrina/adapter-postgres";
import { createVitrina, silentLogger, type Vitrina } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { s256Challenge } from "@vitrina/core/oauth";
import { serveVitrina } from "@vitrina/http-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFromEnv } from "../src/config/storage-from-env.js";
import { sampleLead } from "./support/lead-harness.js";
import { pgbouncerBinary, startPgBouncer, type RunningPgBouncer } from "./support/pgbouncer.js";
import { recordingLogger } from "./support/recording-logger.js";
import { RECEIVER_SECRET, startReceiver } from "./support/webhook-harness.js";

// Issue 40: behind PgBouncer in transaction mode (how Supabase, Neon and Heroku hand out
// connections) named prepared statements collide ("prepared statement … already exists"), LISTEN
// listens on a server connection that is handed to someone else, and session settings leak. This
// suite runs a real server through a real PgBouncer with two server connections, so clients share.
const DATABASE_URL = process.env.DATABASE_URL;
const binary = pgbouncerBinary();
const skipReason = !DATABASE_URL
  ? "DATABASE_URL is not set (PgBouncer needs a PostgreSQL server behind it)"
  : "reason" in binary
    ? binary.reason
    : null;
if (skipReason !== null) console.log(`pgbouncer.e2e: skipped, ${skipReason}`);

const SECRET_BOX_KEY = Buffer.alloc(32, 5).toString("base64");
const REDIRECT_URI = "http://127.0.0.1:9999/callback";
const OWNER = "owner-1";

const schemaName = () => `t_pgb_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** A Vitrina server and worker as `vitrina` runs them: storage from the environment, served on a socket. */
async function startVitrinaFromEnv(env: Record<string, string>) {
  const { logger, entries } = recordingLogger();
  const configured = await storageFromEnv({ env, logger });
  let workspaceId = "";
  const vitrina: Vitrina = createVitrina({
    storage: configured.storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    logger,
    rest: { enabled: true },
    webhooks: { allowInsecureLoopback: true },
    oauth: {
      authorize: async (_request, { scopes }) => ({ userId: OWNER, workspaceId, grantedScopes: scopes }),
      registration: { rateLimit: false },
    },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: OWNER });
  workspaceId = workspace.id;
  const server = await serveVitrina(vitrina, { port: 0, handleSignals: false });
  return { vitrina, storage: configured.storage, workspace, server, entries, close: () => server.close() };
}

/** Posts `count` signed leads at once to `app`'s lead intake; their statuses. */
async function postLeads(app: Awaited<ReturnType<typeof startVitrinaFromEnv>>, systemId: string, count = 8) {
  const { connector, secret } = await app.vitrina.connectors.create(
    { userId: OWNER },
    { workspaceId: app.workspace.id, name: "CRM", systemId },
  );
  return Promise.all(
    Array.from({ length: count }, async () => {
      const body = JSON.stringify(sampleLead());
      const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: Date.now() });
      const response = await fetch(`${app.server.url}/functions/v1/lead-intake`, { method: "POST", headers, body });
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

/** What a suite behind PgBouncer works with: the pooler, a direct pool for set-up, Vitrina, its schema. */
interface BehindPgBouncer {
  bouncer: RunningPgBouncer;
  direct: pg.Pool;
  app: Awaited<ReturnType<typeof startVitrinaFromEnv>>;
  schema: string;
}

/**
 * Starts PgBouncer in `mode` before the suite and Vitrina on the environment `env(bouncerUrl)` gives
 * (plus a schema of its own); stops and drops everything after it. The fields are set in `beforeAll`.
 */
function behindPgBouncer(
  options: { poolMode: "transaction" | "session"; poolSize: number },
  env: (bouncerUrl: string) => Record<string, string>,
): BehindPgBouncer {
  const s = { schema: schemaName() } as BehindPgBouncer;
  beforeAll(async () => {
    s.bouncer = await startPgBouncer((binary as { path: string }).path, DATABASE_URL!, options);
    s.direct = new pg.Pool({ connectionString: DATABASE_URL });
    s.app = await startVitrinaFromEnv({ ...env(s.bouncer.url), VITRINA_DB_SCHEMA: s.schema });
  });
  afterAll(async () => {
    await s.app?.close();
    await s.app?.storage.close();
    await s.direct?.query(`DROP SCHEMA IF EXISTS "${s.schema}" CASCADE`);
    await s.direct?.end();
    await s.bouncer?.stop();
  });
  return s;
}

describe.skipIf(skipReason !== null)(
  "Vitrina behind PgBouncer in transaction mode (DATABASE_URL ?pgbouncer=true)",
  () => {
    const s = behindPgBouncer({ poolMode: "transaction", poolSize: 2 }, (url) => ({
      DATABASE_URL: `${url}?pgbouncer=true`,
    }));

    async function api(
      method: string,
      path: string,
      key: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const response = await fetch(`${s.app.server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        json: text === "" ? null : (JSON.parse(text) as any),
      };
    }

    it("takes 48 leads 8 at a time, and records every webhook delivery they cause", async () => {
      const receiver = await startReceiver();
      try {
        const { vitrina, workspace } = s.app;
        const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: OWNER }, workspace.id, {
          name: "ERP",
          scopes: ["webhooks:read", "webhooks:write"],
        });
        const subscribed = await api("POST", "/v1/webhooks", apiKey, {
          url: receiver.url,
          events: ["conversation.started"],
          secret: RECEIVER_SECRET,
        });
        expect(subscribed.status).toBe(201);
        const { connector, secret } = await vitrina.connectors.create(
          { userId: OWNER },
          { workspaceId: workspace.id, name: "CRM", systemId: "crm-pgbouncer" },
        );
        const statuses: number[] = [];
        const bodies: unknown[] = [];
        for (let batch = 0; batch < 6; batch++) {
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              const body = JSON.stringify(sampleLead());
              const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: Date.now() });
              const response = await fetch(`${s.app.server.url}/functions/v1/lead-intake`, {
                method: "POST",
                headers,
                body,
              });
              statuses.push(response.status);
              if (response.status !== 200) bodies.push(await response.json());
              else await response.arrayBuffer();
            }),
          );
        }
        expect(bodies).toEqual([]);
        expect(statuses.filter((s) => s === 200)).toHaveLength(48);

        // The in-process worker wakes on its own commits: no LISTEN needed for those.
        const deadline = Date.now() + 15_000;
        while (receiver.received.length < 48 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(receiver.received).toHaveLength(48);
        // …and every attempt is recorded as delivered.
        let recorded: any[] = [];
        while (Date.now() < deadline) {
          const page = await api("GET", `/v1/webhooks/${subscribed.json.id}/deliveries?limit=100`, apiKey);
          expect(page.status).toBe(200);
          recorded = page.json.data;
          if (recorded.length === 48 && recorded.every((d) => d.status === "succeeded")) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(recorded.map((d) => d.status)).toEqual(Array(48).fill("succeeded"));
      } finally {
        await receiver.close();
      }
    });

    it("grants an OAuth token (authorization code with PKCE) that then opens /mcp", async () => {
      const base = s.app.server.url;
      const registered = await fetch(`${base}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "Pooler client",
          redirect_uris: [REDIRECT_URI],
          grant_types: ["authorization_code", "refresh_token"],
          token_endpoint_auth_method: "none",
        }),
      });
      expect(registered.status).toBe(201);
      const clientId = ((await registered.json()) as { client_id: string }).client_id;
      const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
      const query = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: await s256Challenge(verifier),
        code_challenge_method: "S256",
        state: "st",
        resource: `${base}/mcp`,
      });
      const authorized = await fetch(`${base}/authorize?${query}`, { redirect: "manual" });
      const code = new URL(authorized.headers.get("location")!).searchParams.get("code");
      expect(code).toBeTruthy();
      const token = await fetch(`${base}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: clientId,
          code: code!,
          code_verifier: verifier,
          redirect_uri: REDIRECT_URI,
        }),
      });
      const tokens = (await token.json()) as { access_token: string; refresh_token: string };
      expect(token.status).toBe(200);
      const mcp = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${tokens.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(mcp.status).toBe(200);
    });

    it("replays a REST command by its Idempotency-Key and refuses the key's reuse", async () => {
      const { vitrina, workspace } = s.app;
      const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: OWNER }, workspace.id, {
        name: "ERP",
        scopes: ["customers:read", "customers:write"],
      });
      const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56922223333" });
      const headers = { "idempotency-key": "rename-ana-pgbouncer" };
      const body = { contact_id: contact!.id, name: "Ana" };
      const first = await api("POST", "/v1/rest/contacts.update", apiKey, body, headers);
      expect(first.status).toBe(200);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const again = await api("POST", "/v1/rest/contacts.update", apiKey, body, headers);
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json.output).toEqual(first.json.output);
      const reused = await api("POST", "/v1/rest/contacts.update", apiKey, { ...body, name: "Otra" }, headers);
      expect(reused.status).toBe(422);
      expect(reused.json.error.code).toBe("idempotency_key_reused");
    });

    it("doesn't LISTEN through the pooler, and says once that workers rely on their sweep", () => {
      expect(s.app.storage.listenForDeliveries).toBeUndefined();
      const said = s.app.entries.filter((e) => /transaction pooler/.test(e.message));
      expect(said).toHaveLength(1);
      expect(["info", "warn"]).toContain(said[0]!.level);
      expect(said[0]!.message).toMatch(/DATABASE_DIRECT_URL/);
      expect(JSON.stringify(said[0])).not.toContain(s.bouncer.url);
    });

    it("queues migrations of instances starting together on the advisory lock, through the pooler", async () => {
      const racing = schemaName();
      const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: s.bouncer.url, max: 1 }));
      try {
        const applied = await Promise.all(pools.map((pool) => migrate(pool, { schema: racing, logger: silentLogger })));
        // One instance applied every migration; the others waited on the lock and found nothing to do.
        expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);
        expect(applied.filter((versions) => versions.length === 0)).toHaveLength(3);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
        await s.direct.query(`DROP SCHEMA IF EXISTS "${racing}" CASCADE`);
      }
    });
  },
);

describe.skipIf(skipReason !== null)("Vitrina behind PgBouncer in transaction mode with DATABASE_DIRECT_URL", () => {
  const s = behindPgBouncer({ poolMode: "transaction", poolSize: 2 }, (url) => ({
    DATABASE_URL: `${url}?pgbouncer=true`,
    DATABASE_DIRECT_URL: DATABASE_URL!,
  }));

  it("listens for other processes' deliveries over the s.direct connection", async () => {
    expect(s.app.storage.listenForDeliveries).toBeDefined();
    let woken = 0;
    const unlisten = await s.app.storage.listenForDeliveries!(() => void woken++);
    try {
      // Another process's commit, made through the pooler as it would be.
      const other = new pg.Pool({ connectionString: s.bouncer.url });
      await other.query("SELECT pg_notify($1, '')", [`vitrina_deliveries_${s.schema}`]);
      await other.end();
      const deadline = Date.now() + 5_000;
      while (woken === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(woken).toBeGreaterThan(0);
    } finally {
      await unlisten();
    }
    expect(s.app.entries.filter((e) => /transaction pooler/.test(e.message))).toEqual([]);
  });

  it("serves leads through the pooler", async () => {
    const statuses = await postLeads(s.app, "crm-s.direct");
    expect(statuses).toEqual(Array(8).fill(200));
  });
});

describe.skipIf(skipReason !== null)("Vitrina behind PgBouncer in session mode (VITRINA_DB_POOLER=session)", () => {
  const s = behindPgBouncer({ poolMode: "session", poolSize: 20 }, (url) => ({
    DATABASE_URL: url,
    VITRINA_DB_POOLER: "session",
  }));

  it("serves leads with prepared statements, and listens through the pooler", async () => {
    const statuses = await postLeads(s.app, "crm-session");
    expect(statuses).toEqual(Array(8).fill(200));
    const viaPooler = new pg.Pool({ connectionString: s.bouncer.url });
    try {
      let woken = 0;
      const unlisten = await s.app.storage.listenForDeliveries!(() => void woken++);
      await viaPooler.query("SELECT pg_notify($1, '')", [`vitrina_deliveries_${s.schema}`]);
      const deadline = Date.now() + 5_000;
      while (woken === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await unlisten();
      expect(woken).toBeGreaterThan(0);
    } finally {
      await viaPooler.end();
    }
  });
});
