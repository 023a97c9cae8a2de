import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import type { ContactRecord, Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { backends, DATABASE_URL, openTestStorage, uniqueSchema } from "./support.js";

// A new person's registration with the first message's claim right behind it (registerNewPerson's
// `claim`): the claim is made by this adapter, on PGlite one statement after the other, on a pg Pool
// in pg's pipeline mode on one connection.
const f = fixtures();

const handOver = (at: number) => ({
  status: "queued" as const,
  reason: "handed to the messaging provider",
  handedToProviderAt: f.at(at),
  updatedAt: f.at(at),
});

async function seed(storage: Storage) {
  const workspace = f.workspace();
  await storage.workspaces.insert(workspace);
  const connector = f.connector(workspace.id);
  await storage.connectors.insert(connector);
  return { workspace, connector };
}

/** A new person's records, and the claim lead intake asks for with them. */
function newPerson(workspaceId: string, connectorId: string, over: Partial<ContactRecord> = {}) {
  const contact = f.contact(workspaceId, over);
  const lead = f.lead(workspaceId, connectorId, { contactId: contact.id });
  const opportunity = f.opportunity(workspaceId, contact.id, lead.id, { id: lead.opportunityId });
  const outbound = f.outbound(workspaceId, lead.id, contact.id);
  return { contact, lead, opportunity, outbound };
}

const register = (storage: Storage, p: ReturnType<typeof newPerson>, at = 7) =>
  storage.leads.registerNewPerson(p.contact, p.lead, p.opportunity, p.outbound, 1, {
    phoneE164: p.contact.phoneE164!,
    change: handOver(at),
  });

describe.each(backends)("registerNewPerson's claim on %s", (backend) => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("is made by the adapter: the answer is claimForSending's, and the record is handed over once", async () => {
    const { storage } = await openTestStorage(backend);
    closers.push(() => storage.close());
    const { workspace, connector } = await seed(storage);
    const person = newPerson(workspace.id, connector.id);
    const result = await register(storage, person);
    expect(result).toEqual({
      registered: true,
      claimed: { contact: person.contact, claimed: { ...person.outbound, ...handOver(7) } },
    });
    expect(await storage.outbound.findByLeadEvent(person.lead.id)).toEqual({ ...person.outbound, ...handOver(7) });
    const late = await storage.outbound.claimForSending(person.outbound, person.contact.phoneE164!, handOver(8));
    expect(late.claimed).toBeNull();
  });

  it("claims nothing for a resend or a known phone, and writes nothing", async () => {
    const { storage } = await openTestStorage(backend);
    closers.push(() => storage.close());
    const { workspace, connector } = await seed(storage);
    const first = newPerson(workspace.id, connector.id);
    expect((await register(storage, first)).registered).toBe(true);

    const resend = newPerson(workspace.id, connector.id);
    resend.lead = { ...resend.lead, sourceLeadId: first.lead.sourceLeadId };
    const samePhone = newPerson(workspace.id, connector.id, { phoneE164: first.contact.phoneE164 });
    for (const refused of [resend, samePhone]) {
      expect(await register(storage, refused, 9)).toEqual({ registered: false });
      expect(await storage.contacts.get(workspace.id, refused.contact.id)).toBeNull();
      expect(await storage.outbound.findByLeadEvent(refused.lead.id)).toBeNull();
    }
    expect(await storage.outbound.findByLeadEvent(first.lead.id)).toEqual({ ...first.outbound, ...handOver(7) });
  });
});

if (!DATABASE_URL) console.log("registerNewPerson's pipelined claim on a pg Pool: skipped, set DATABASE_URL");

describe.skipIf(!DATABASE_URL)("registerNewPerson's pipelined claim on a pg Pool", () => {
  const opened: Array<{ pool: pg.Pool; schema: string }> = [];
  afterEach(async () => {
    for (const { pool, schema } of opened.splice(0)) {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  });

  /** A storage on a one-connection pool (by default): every statement, pipelined or not, shares that connection. */
  async function open(Client: typeof pg.Client = pg.Client, max = 1) {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max, Client });
    const schema = uniqueSchema();
    opened.push({ pool, schema });
    await migrate(pool, { schema });
    const storage = postgresStorage(pool, { schema, closeDriver: false });
    return { pool, schema, storage, ...(await seed(storage)) };
  }

  it("leaves the connection as it found it: out of pipeline mode, usable after a resend failed in the pipeline", async () => {
    const { pool, storage, workspace, connector } = await open();
    // Each checked-out client's mode as it goes back to the pool.
    const modes: boolean[] = [];
    pool.on("release", (_error, client) => modes.push(Boolean((client as { pipeline?: boolean }).pipeline)));
    const first = newPerson(workspace.id, connector.id);
    expect((await register(storage, first)).claimed?.claimed?.id).toBe(first.outbound.id);
    // The lead's insert fails the registration (a resend); the claim behind it still runs, and finds nothing.
    const resend = newPerson(workspace.id, connector.id);
    resend.lead = { ...resend.lead, sourceLeadId: first.lead.sourceLeadId };
    for (let i = 0; i < 5; i++) expect(await register(storage, resend)).toEqual({ registered: false });
    expect(modes).toEqual([false, false, false, false, false, false]);
    // The one connection still answers, statement after statement.
    const next = newPerson(workspace.id, connector.id);
    expect((await register(storage, next, 10)).claimed?.claimed).toEqual({ ...next.outbound, ...handOver(10) });
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("answers each of 200 concurrent registrations with its own claim on 4 connections, resends failing among them", async () => {
    const { storage, workspace, connector } = await open(pg.Client, 4);
    const people = Array.from({ length: 200 }, () => newPerson(workspace.id, connector.id));
    await Promise.all(people.slice(0, 50).map((p) => register(storage, p)));
    // Every fourth call resends an earlier lead: its registration fails inside the pipeline.
    const calls = people.slice(50).map((p, i) => {
      if (i % 4 !== 0) return { person: p, resend: false };
      const earlier = people[i % 50]!;
      return { person: { ...p, lead: { ...p.lead, sourceLeadId: earlier.lead.sourceLeadId } }, resend: true };
    });
    const results = await Promise.all(calls.map(({ person }, i) => register(storage, person, 100 + i)));
    for (const [i, { person, resend }] of calls.entries()) {
      if (resend) {
        expect(results[i]).toEqual({ registered: false });
        expect(await storage.contacts.get(workspace.id, person.contact.id)).toBeNull();
        continue;
      }
      // A result matched to the wrong statement would name another person's contact or message.
      expect(results[i]).toEqual({
        registered: true,
        claimed: { contact: person.contact, claimed: { ...person.outbound, ...handOver(100 + i) } },
      });
    }
  });

  it("claims with a pg that has no pipeline mode too: the claim goes once the registration answered", async () => {
    // pg before 8.23 has no `pipeline`: a client that ignores the flag stands in for it.
    class ClientWithoutPipelines extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super(config);
        Object.defineProperty(this, "pipeline", { get: () => false, set: () => {} });
      }
    }
    const { storage, workspace, connector } = await open(ClientWithoutPipelines);
    const person = newPerson(workspace.id, connector.id);
    expect(await register(storage, person)).toEqual({
      registered: true,
      claimed: { contact: person.contact, claimed: { ...person.outbound, ...handOver(7) } },
    });
  });

  it("retries a claim whose prepared statement went stale behind the registration, and still claims", async () => {
    const { pool, schema, storage, workspace, connector } = await open();
    const warm = newPerson(workspace.id, connector.id);
    expect((await register(storage, warm)).claimed).toBeDefined();
    // The claim reads `contacts.*`: a new column changes its result type, so its prepared plan fails once.
    await pool.query(`ALTER TABLE "${schema}".contacts ADD COLUMN added_by_a_later_release text`);
    const person = newPerson(workspace.id, connector.id);
    const result = await register(storage, person);
    expect(result.registered).toBe(true);
    expect(result.claimed?.claimed).toEqual({ ...person.outbound, ...handOver(7) });
    expect(await storage.outbound.findByLeadEvent(person.lead.id)).toEqual({ ...person.outbound, ...handOver(7) });
  });
});
