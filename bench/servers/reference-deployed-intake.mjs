// The reference for lead intake as users deploy it: the hand-written reference of
// reference-postgres-intake.mjs doing the deployed configuration's work as well. Between its two
// statements it sends the welcome through the Cloud API (the bench's fake Graph API); its second
// statement also queues the `conversation.started` delivery (an outbox commits it with the event);
// after the answer it POSTs that delivery, signed as Vitrina signs, to the subscription's receiver
// and records it delivered with its attempt, and the subscription's newest outcome, as Vitrina's
// outbox keeps them (a third statement). The same durable work as Vitrina's intake and its
// in-process worker, with none of a product's rules: a floor, not a competitor.
// `db` is a pg Pool (named prepared statements) or a PGlite instance (text and parameters).
import { randomUUID } from "node:crypto";
import { request } from "undici";
import { signWebhook } from "@vitrina/client";
import { commitLeadOn, named, referenceStatements, startSignedLeadServer } from "./reference-postgres-intake.mjs";

/** One statement on `db`: pg takes the named config, PGlite its text and values. */
const queryOn = (db) =>
  typeof db.connect === "function" ? (config) => db.query(config) : (config) => db.query(config.text, config.values);

async function postJson(url, body, headers) {
  const { statusCode, body: answer } = await request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await answer.text();
  if (statusCode >= 300) throw new Error(`${url} answered ${statusCode}`);
  return { statusCode, text };
}

export async function startReferenceDeployedIntake(options) {
  const { db, schema, workspaceId, connectorId, secret, graphUrl, receiverUrl, webhookSecret, subscriptionId } =
    options;
  const query = queryOn(db);
  const { commitLead, recordSent } = referenceStatements(schema, { queueDelivery: true });
  const s = `"${schema}"`;
  // $1 the delivery, $2 when it was answered, $3 the attempt's id, $4 its status code, $5 its duration,
  // $6 the headers it was sent with.
  const recordDelivered = `
    WITH delivered AS (
      UPDATE ${s}.webhook_deliveries SET status = 'succeeded', attempt_count = 1, delivered_at = $2 WHERE id = $1
      RETURNING id, subscription_id
    ), attempt AS (
      INSERT INTO ${s}.webhook_attempts (id, delivery_id, number, attempted_at, status_code, duration_ms, error, request_headers)
      SELECT $3, delivered.id, 1, $2, $4, $5, NULL, $6::jsonb FROM delivered
    )
    UPDATE ${s}.webhook_subscriptions w SET last_attempt_at = $2, last_attempt_status_code = $4, last_attempt_error = NULL,
      failing_since = NULL
    FROM delivered WHERE w.id = delivered.subscription_id`;

  async function deliver(deliveryId, eventId, conversationId, contactId, created) {
    const payload = JSON.stringify({
      id: eventId,
      type: "conversation.started",
      created,
      workspace_id: workspaceId,
      data: { conversation_id: conversationId, contact_id: contactId, channel: "whatsapp", started_by: "lead_intake" },
    });
    const headers = {
      "vitrina-signature": signWebhook({ payload, secret: webhookSecret }),
      "vitrina-event-id": eventId,
    };
    const started = performance.now();
    const { statusCode } = await postJson(receiverUrl, payload, headers);
    const answeredIn = performance.now() - started;
    await query(
      named("reference_record_delivered", recordDelivered, [
        deliveryId,
        new Date().toISOString(),
        randomUUID(),
        statusCode,
        answeredIn,
        // What was sent, its signature redacted, as Vitrina's attempts keep it.
        JSON.stringify({ "content-type": "application/json", ...headers, "vitrina-signature": "[redacted]" }),
      ]),
    );
  }

  return startSignedLeadServer({
    secret,
    async register(lead, body) {
      const { rows, outboundId } = await commitLeadOn(query, commitLead, { workspaceId, connectorId }, lead, body);
      if (rows.length === 0) return { leadEventId: null };
      const { text: answer } = await postJson(
        `${graphUrl}/v21.0/bench/messages`,
        JSON.stringify({
          messaging_product: "whatsapp",
          to: lead.contact.phone_e164.slice(1),
          type: "template",
          template: { name: "vitrina_welcome", language: { code: "es" } },
        }),
        { authorization: "Bearer bench" },
      );
      const sent = JSON.parse(answer);
      const answeredAt = new Date().toISOString();
      const [conversationId, eventId, deliveryId] = [
        randomUUID(),
        `evt_${randomUUID().replace(/-/g, "")}`,
        randomUUID(),
      ];
      await query(
        named("reference_record_sent", recordSent, [
          outboundId,
          workspaceId,
          sent.messages[0].id,
          answeredAt,
          conversationId,
          randomUUID(),
          eventId,
          deliveryId,
          subscriptionId,
        ]),
      );
      // After the answer, as a worker would: the lead is committed with its delivery queued.
      return {
        leadEventId: rows[0].id,
        after: () => deliver(deliveryId, eventId, conversationId, rows[0].contact_id, answeredAt),
      };
    },
  });
}
