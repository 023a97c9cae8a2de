import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import { fixtures } from "./fixtures.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/** Resolves to the error `write` fails with, or fails the test when it succeeds. */
async function failureOf(what: string, write: () => Promise<unknown>): Promise<{ code?: unknown }> {
  const outcome = await write().then(
    () => "succeeded",
    (error: unknown) => error,
  );
  expect(outcome, `${what} should have failed`).not.toBe("succeeded");
  expect(outcome, `${what}: a plain value was thrown`).toBeInstanceOf(Error);
  return outcome as { code?: unknown };
}

async function expectCode(code: string, what: string, write: () => Promise<unknown>): Promise<void> {
  const error = await failureOf(what, write);
  expect(error.code, `${what}: ${String(error)}`).toBe(code);
}

/** One of every record, linked so foreign keys hold. Inserted in this order. */
function recordGraph() {
  const f = fixtures();
  const w = webhookFixtures();
  const workspace = f.workspace();
  const connector = f.connector(workspace.id);
  const contact = f.contact(workspace.id);
  const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
  const opportunity = f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId });
  const outbound = f.outbound(workspace.id, lead.id, contact.id);
  const conversation = f.conversation(workspace.id, contact.id);
  const message = {
    id: f.id(),
    workspaceId: workspace.id,
    conversationId: conversation.id,
    sender: "contact",
    content: "hola",
    createdAt: f.at(),
  };
  const event = {
    id: `evt_${f.id()}`,
    workspaceId: workspace.id,
    type: "quote.created",
    created: f.at(),
    data: { quote_id: "q1" },
  };
  const hash = () => f.id().replace(/-/g, "").repeat(2);
  const client = {
    id: f.id(),
    secretHash: null,
    tokenEndpointAuthMethod: "none" as const,
    redirectUris: ["http://127.0.0.1/cb"],
    scopes: null,
    metadata: {},
    createdAt: f.at(),
    approvedAt: null,
  };
  const family = {
    id: f.id(),
    clientId: client.id,
    userId: "u1",
    workspaceId: workspace.id,
    scopes: ["catalog:read"],
    resource: "https://api.example.com/mcp",
    createdAt: f.at(),
    expiresAt: f.at(90 * 86_400_000),
    revokedAt: null,
  };
  const code = {
    codeHash: hash(),
    clientId: client.id,
    redirectUri: "http://127.0.0.1/cb",
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    resource: family.resource,
    scopes: ["catalog:read"],
    userId: "u1",
    workspaceId: workspace.id,
    familyId: family.id,
    expiresAt: f.at(60_000),
    createdAt: f.at(),
    usedAt: null,
  };
  const refresh = {
    tokenHash: hash(),
    familyId: family.id,
    scopes: ["catalog:read"],
    expiresAt: f.at(86_400_000),
    createdAt: f.at(),
    usedAt: null,
  };
  const run = {
    id: f.id(),
    workspaceId: workspace.id,
    agentId: "bot",
    actorId: null,
    status: "completed" as const,
    trace: [],
    startedAt: f.at(),
    completedAt: f.at(1),
  };
  const task = {
    id: f.id(),
    workspaceId: workspace.id,
    kind: "policy_review" as const,
    status: "open" as const,
    title: "Review",
    reason: "why",
    capability: "contacts.update",
    input: {},
    actorId: null,
    agentId: null,
    createdAt: f.at(),
  };
  const attempt = {
    id: f.id(),
    workspaceId: workspace.id,
    capability: "contacts.update",
    idempotencyKey: `key-${f.id()}`,
    inputFingerprint: "abc",
    state: "pending" as const,
    version: 1,
    leaseExpiresAt: null,
    output: null,
    observedAt: null,
    createdAt: f.at(),
    updatedAt: f.at(),
  };
  const quote = w.quote(workspace.id, contact.id);
  const order = w.order(workspace.id, contact.id, { quoteId: quote.id });
  const payment = w.payment(workspace.id, order.id, contact.id);
  const apiKey = w.apiKey(workspace.id);
  const subscription = w.subscription(workspace.id);
  const delivery = w.delivery(workspace.id, subscription.id, { eventId: event.id });
  const deliveryAttempt = {
    id: f.id(),
    deliveryId: delivery.id,
    number: 1,
    attemptedAt: f.at(),
    statusCode: 200,
    durationMs: 3,
    error: null,
    responseBodyPrefix: "ok",
  };
  return {
    f,
    w,
    workspace,
    connector,
    contact,
    lead,
    opportunity,
    outbound,
    conversation,
    message,
    event,
    client,
    family,
    code,
    refresh,
    run,
    task,
    attempt,
    quote,
    order,
    payment,
    apiKey,
    subscription,
    delivery,
    deliveryAttempt,
  };
}

/**
 * Bad input the database refuses, asserted the same for every adapter, run inside
 * `runStorageContract`: (a) every insert that repeats a unique key fails with `conflict`, never a
 * plain Error (a 500), and leaves the stored row as it was; (b) text PostgreSQL cannot store
 * (U+0000, a lone UTF-16 surrogate) in a text or JSON field fails with `invalid_argument` and
 * writes nothing, and a lookup by such a key finds nothing or is refused the same way.
 */
export function inputContract({ storage }: ContractContext): void {
  describe("bad input", () => {
    it("reports `conflict` for every insert that repeats a unique key, and keeps the first row", async () => {
      const s = storage();
      const g = recordGraph();
      const { f, w } = g;
      // Each write: the first succeeds, every repeat of one of its unique keys is a conflict.
      const cases: Array<[string, () => Promise<unknown>, Array<() => Promise<unknown>>]> = [
        [
          "workspaces.insert",
          () => s.workspaces.insert(g.workspace),
          [() => s.workspaces.insert({ ...g.workspace, name: "Other" })],
        ],
        [
          "connectors.insert",
          () => s.connectors.insert(g.connector),
          [
            () => s.connectors.insert({ ...g.connector, systemId: "other-system" }),
            () => s.connectors.insert(f.connector(g.workspace.id, { systemId: g.connector.systemId })),
          ],
        ],
        [
          "contacts.insertOrGetByPhone",
          () => s.contacts.insertOrGetByPhone(g.contact),
          [() => s.contacts.insertOrGetByPhone({ ...g.contact, phoneE164: "+56900000001" })],
        ],
        [
          "leads.insertIfNew",
          () => s.leads.insertIfNew(g.lead),
          [() => s.leads.insertIfNew({ ...g.lead, sourceLeadId: `crm-${f.id()}` })],
        ],
        [
          "opportunities.insert",
          () => s.opportunities.insert(g.opportunity),
          [() => s.opportunities.insert({ ...g.opportunity, source: "other" })],
        ],
        [
          "outbound.insert",
          () => s.outbound.insert(g.outbound),
          [
            () => s.outbound.insert({ ...g.outbound, status: "sent" }),
            () => s.outbound.insert(f.outbound(g.workspace.id, g.lead.id, g.contact.id)),
          ],
        ],
        [
          "conversations.insert",
          () => s.conversations.insert(g.conversation),
          [() => s.conversations.insert({ ...g.conversation, status: "closed" })],
        ],
        [
          "messages.insert",
          () => s.messages.insert(g.message),
          [() => s.messages.insert({ ...g.message, content: "otra" })],
        ],
        [
          "events.append",
          () => s.events.append(g.event),
          [() => s.events.append({ ...g.event, type: "order.confirmed" })],
        ],
        [
          "oauthClients.insert",
          () => s.oauthClients.insert(g.client),
          [() => s.oauthClients.insert({ ...g.client, metadata: { client_name: "x" } })],
        ],
        [
          "oauthTokens.insertFamily",
          () => s.oauthTokens.insertFamily(g.family),
          [() => s.oauthTokens.insertFamily({ ...g.family, userId: "u2" })],
        ],
        [
          "oauthCodes.insert",
          () => s.oauthCodes.insert(g.code),
          [() => s.oauthCodes.insert({ ...g.code, userId: "u2" })],
        ],
        [
          "oauthTokens.insertRefreshToken",
          () => s.oauthTokens.insertRefreshToken(g.refresh),
          [() => s.oauthTokens.insertRefreshToken({ ...g.refresh, scopes: [] })],
        ],
        [
          "agentRuns.insert",
          () => s.agentRuns.insert(g.run),
          [() => s.agentRuns.insert({ ...g.run, agentId: "other" })],
        ],
        ["tasks.insert", () => s.tasks.insert(g.task), [() => s.tasks.insert({ ...g.task, title: "Other" })]],
        [
          "idempotencyAttempts.insertIfNew",
          () => s.idempotencyAttempts.insertIfNew(g.attempt),
          [() => s.idempotencyAttempts.insertIfNew({ ...g.attempt, idempotencyKey: `key-${f.id()}` })],
        ],
        ["quotes.insert", () => s.quotes.insert(g.quote), [() => s.quotes.insert({ ...g.quote, total: 1 })]],
        [
          "orders.insert",
          () => s.orders.insert(g.order),
          [
            () => s.orders.insert({ ...g.order, quoteId: null }),
            () => s.orders.insert(w.order(g.workspace.id, g.contact.id, { quoteId: g.quote.id })),
          ],
        ],
        [
          "payments.insert",
          () => s.payments.insert(g.payment),
          [
            () => s.payments.insert({ ...g.payment, providerReference: `ref-${f.id()}` }),
            () =>
              s.payments.insert(
                w.payment(g.workspace.id, g.order.id, g.contact.id, { providerReference: g.payment.providerReference }),
              ),
          ],
        ],
        [
          "apiKeys.insert",
          () => s.apiKeys.insert(g.apiKey),
          [
            () => s.apiKeys.insert({ ...g.apiKey, hash: "f".repeat(64) }),
            () => s.apiKeys.insert(w.apiKey(g.workspace.id, { hash: g.apiKey.hash })),
          ],
        ],
        [
          "webhookSubscriptions.insert",
          () => s.webhookSubscriptions.insert(g.subscription),
          [() => s.webhookSubscriptions.insert({ ...g.subscription, enabled: false })],
        ],
        [
          "webhookDeliveries.insert",
          () => s.webhookDeliveries.insert(g.delivery),
          [
            () => s.webhookDeliveries.insert({ ...g.delivery, eventId: `evt_${f.id()}` }),
            () => s.webhookDeliveries.insert(w.delivery(g.workspace.id, g.subscription.id, { eventId: g.event.id })),
          ],
        ],
        [
          "webhookAttempts.insert",
          () => s.webhookAttempts.insert(g.deliveryAttempt),
          [() => s.webhookAttempts.insert({ ...g.deliveryAttempt, number: 2 })],
        ],
      ];
      for (const [what, first, repeats] of cases) {
        await first();
        for (const [i, repeat] of repeats.entries()) await expectCode("conflict", `${what}, repeat ${i + 1}`, repeat);
      }
      // The first rows are intact: nothing of a refused repeat was written.
      expect(await s.workspaces.get(g.workspace.id)).toEqual(g.workspace);
      expect(await s.connectors.get(g.connector.id)).toEqual(g.connector);
      expect(await s.contacts.get(g.workspace.id, g.contact.id)).toEqual(g.contact);
      expect(await s.leads.get(g.lead.id)).toEqual(g.lead);
      expect(await s.outbound.findByLeadEvent(g.lead.id)).toEqual(g.outbound);
      expect(await s.events.get(g.event.id)).toEqual(g.event);
      expect(await s.oauthClients.get(g.client.id)).toEqual(g.client);
      expect(await s.tasks.get(g.workspace.id, g.task.id)).toEqual(g.task);
      expect(await s.quotes.get(g.workspace.id, g.quote.id)).toEqual(g.quote);
      expect(await s.webhookSubscriptions.get(g.workspace.id, g.subscription.id)).toEqual(g.subscription);
      expect((await s.webhookDeliveries.listBySubscription(g.subscription.id, { limit: 10 })).map((d) => d.id)).toEqual(
        [g.delivery.id],
      );
    });

    const unstorable: Array<[string, string]> = [
      ["U+0000", "a\u0000b"],
      ["a lone high surrogate", "a\uD800b"],
      ["a lone low surrogate", "\uDFFFb"],
    ];

    it.each(unstorable)(
      "refuses %s in text and JSON fields with invalid_argument, writing nothing",
      async (_label, bad) => {
        const s = storage();
        const g = recordGraph();
        await expectCode("invalid_argument", "a text column", () => s.workspaces.insert({ ...g.workspace, name: bad }));
        expect(await s.workspaces.get(g.workspace.id)).toBeNull();
        await s.workspaces.insert(g.workspace);
        await expectCode("invalid_argument", "a JSON value", () =>
          s.events.append({ ...g.event, data: { note: { deep: [bad] } } }),
        );
        await expectCode("invalid_argument", "a JSON key", () => s.events.append({ ...g.event, data: { [bad]: 1 } }));
        expect(await s.events.get(g.event.id)).toBeNull();
        // In a transaction, an earlier good write is rolled back with the refused one.
        await expectCode("invalid_argument", "a transaction", () =>
          s.transaction(async (tx) => {
            await tx.connectors.insert(g.connector);
            await tx.connectors.insert({ ...g.f.connector(g.workspace.id), name: bad });
          }),
        );
        expect(await s.connectors.get(g.connector.id)).toBeNull();
        // An update carrying it is refused too, and the row stays as it was.
        await s.connectors.insert(g.connector);
        await expectCode("invalid_argument", "an update", () =>
          s.connectors.updateSecret(g.connector.id, bad, g.f.at(1)),
        );
        expect(await s.connectors.get(g.connector.id)).toEqual(g.connector);
      },
    );

    it.each(unstorable)(
      "finds nothing or refuses with invalid_argument for a lookup key holding %s",
      async (_label, bad) => {
        const s = storage();
        const lookups: Array<[string, () => Promise<unknown>]> = [
          ["workspaces.get", () => s.workspaces.get(bad)],
          ["oauthClients.get", () => s.oauthClients.get(bad)],
          [
            "webhookDeliveries.listBySubscription",
            () => s.webhookDeliveries.listBySubscription(bad, { limit: 5, startingAfter: bad }),
          ],
          ["contacts.search", () => s.contacts.search(bad, bad, { limit: 5 })],
        ];
        for (const [what, lookup] of lookups) {
          const outcome = await lookup().then(
            (found) => ({ found }),
            (error: unknown) => ({ error: error as { code?: unknown } }),
          );
          if ("error" in outcome)
            expect(outcome.error.code, `${what}: ${String(outcome.error)}`).toBe("invalid_argument");
          else
            expect(outcome.found, what).toSatisfy(
              (found: unknown) => found === null || (Array.isArray(found) && found.length === 0),
            );
        }
      },
    );
  });
}
