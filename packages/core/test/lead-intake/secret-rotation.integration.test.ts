import { afterEach, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { anotherPool, backends, openTestStorage } from "../../../adapter-postgres/test/support.js";
import { sampleLead, startLeadHarness, TEST_SECRET_BOX_KEY, type LeadHarness } from "../support/lead-harness.js";

/**
 * Lead intake verifies with a cached connector and secret, so a lead costs no read. These suites
 * check what that cache must never cost: a rotation made by ANOTHER process (a second Vitrina over
 * the same database, with its own pool on PostgreSQL) stops the old secret at the very next lead,
 * for a new person, a known person and a resend alike, and a CRM already on the new secret is
 * accepted at once.
 */
interface Backend {
  name: string;
  /** The storage the server runs on, and a second one over the same data: the other process. */
  open(): Promise<{ storage: Storage; other: Storage; close(): Promise<void> }>;
}

const memory: Backend = {
  name: "memory",
  async open() {
    const storage = memoryStorage();
    // One process can only share a memory storage; its cache is still the server's own.
    return { storage, other: storage, close: async () => {} };
  },
};

const databases: Backend[] = backends.map((name) => ({
  name,
  async open() {
    const { storage, schema } = await openTestStorage(name);
    if (name === "PGlite") return { storage, other: storage, close: async () => {} };
    const pool = anotherPool(4);
    const other = postgresStorage(pool, { schema, closeDriver: false });
    return { storage, other, close: () => pool.end() };
  },
}));

describe.each([memory, ...databases].map((b) => [b.name, b] as const))(
  "lead intake after a rotation in another process (%s)",
  (_name, backend) => {
    let h: LeadHarness;
    let closeOther = async () => {};
    afterEach(async () => {
      await h.close();
      await closeOther();
    });

    /** Starts the server, warms its cache with one accepted lead, and rotates from the other process. */
    async function rotatedElsewhere() {
      const { storage, other, close } = await backend.open();
      closeOther = close;
      h = await startLeadHarness({ storage });
      const first = sampleLead();
      const accepted = await h.send(first);
      expect(accepted.status).toBe(200);
      const elsewhere = createVitrina({
        storage: other,
        messaging: { send: async () => ({ status: "sent", providerMessageId: "unused" }) },
        secretBox: TEST_SECRET_BOX_KEY,
        logger: silentLogger,
      });
      const { secret: newSecret } = await elsewhere.connectors.rotate(
        { userId: "owner-1" },
        { connectorId: h.connector.id },
      );
      return { first, firstAnswer: accepted.json, newSecret };
    }

    it("refuses the old secret for a new person, a known person and a resend, writing nothing", async () => {
      const { first } = await rotatedElsewhere();
      const before = await h.counts();
      const newPerson = await h.send(sampleLead());
      const knownPerson = await h.send(sampleLead({ contact: first.contact }));
      const resend = await h.send(first);
      for (const answer of [newPerson, knownPerson, resend]) {
        expect(answer.status).toBe(401);
        expect(answer.json.error.code).toBe("invalid_signature");
      }
      expect(await h.counts()).toEqual(before);
    });

    it("accepts the new secret at once, for a new person, a known person and a resend", async () => {
      const { first, firstAnswer, newSecret } = await rotatedElsewhere();
      const newPerson = await h.send(sampleLead(), { secret: newSecret });
      expect(newPerson.status).toBe(200);
      expect(newPerson.json.duplicate).toBe(false);
      const knownPerson = await h.send(sampleLead({ contact: first.contact }), { secret: newSecret });
      expect(knownPerson.status).toBe(200);
      expect(knownPerson.json.contact_id).toBe(firstAnswer.contact_id);
      const resend = await h.send(first, { secret: newSecret });
      expect(resend.json).toEqual({ ...firstAnswer, duplicate: true });
    });

    it("with 20 leads on each secret at once: every old one refused, every new one accepted", async () => {
      const { newSecret } = await rotatedElsewhere();
      const before = await h.counts();
      const old = Array.from({ length: 20 }, () => h.send(sampleLead()));
      const renewed = Array.from({ length: 20 }, () => h.send(sampleLead(), { secret: newSecret }));
      const [oldAnswers, newAnswers] = await Promise.all([Promise.all(old), Promise.all(renewed)]);
      expect(oldAnswers.map((a) => a.status)).toEqual(Array(20).fill(401));
      expect(newAnswers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect((await h.counts()).leads).toBe(before.leads + 20);
    });
  },
);

describe("lead intake's connector cache", () => {
  let h: LeadHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it("reads the connector once for many leads, and again only for a signature its cached secret refuses", async () => {
    const inner = memoryStorage();
    let reads = 0;
    const storage: Storage = {
      ...inner,
      connectors: {
        ...inner.connectors,
        getWithWorkspace(id) {
          reads++;
          return inner.connectors.getWithWorkspace(id);
        },
      },
    };
    h = await startLeadHarness({ storage });
    for (let i = 0; i < 5; i++) expect((await h.send(sampleLead())).status).toBe(200);
    expect(reads).toBe(1);
    const forged = await h.send(sampleLead(), { secret: "vtr_cs_not_the_secret_0123456789abcdef" });
    expect(forged.json.error.code).toBe("invalid_signature");
    expect(reads).toBe(2);
    const unknown = await h.send(sampleLead(), { connectorId: "00000000-0000-4000-8000-00000000dead" });
    expect(unknown.json.error.code).toBe("unknown_connector");
    expect(reads).toBe(3);
    expect((await h.send(sampleLead())).status).toBe(200);
    expect(reads).toBe(3);
  });
});
