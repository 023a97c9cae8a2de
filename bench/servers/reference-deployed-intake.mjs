// The reference for lead intake as users deploy it: the hand-written reference of
// reference-postgres-intake.mjs doing the deployed configuration's work as well. Between its two
// statements it sends the welcome through the Cloud API (the bench's fake Graph API); its second
// statement also queues the `conversation.started` delivery (an outbox commits it with the event);
// after the answer it POSTs that delivery, signed as Vitrina signs, to the subscription's receiver
// and records it delivered (a third statement). The same durable work as Vitrina's intake and its
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
  return text;
}

export async function startReferenceDeployedIntake(options) {
  const { db, schema, workspaceId, connectorId, secret, graphUrl, receiverUrl, webhookSecret, subscriptionId } =
    options;
  const query = queryOn(db);
  const { commitLead, recordSent } = referenceStatements(schema, { queueDelivery: true });
  const recordDelivered = `UPDATE "${schema}".webhook_deliveries SET status = 'succeeded', attempt_count = 1, delivered_at = $2 WHERE id = $1`;

  async function deliver(deliveryId, eventId, conversationId, contactId, created) {
    const payload = JSON.stringify({
      id: eventId,
      type: "conversation.started",
      created,
      workspace_id: workspaceId,
      data: { conversation_id: conversationId, contact_id: contactId, channel: "whatsapp", started_by: "lead_intake" },
    });
    await postJson(receiverUrl, payload, {
      "vitrina-signature": signWebhook({ payload, secret: webhookSecret }),
      "vitrina-event-id": eventId,
    });
    await query(named("reference_record_delivered", recordDelivered, [deliveryId, new Date().toISOString()]));
  }

  return startSignedLeadServer({
    secret,
    async register(lead, body) {
      const { rows, outboundId } = await commitLeadOn(query, commitLead, { workspaceId, connectorId }, lead, body);
      if (rows.length === 0) return { leadEventId: null };
      const sent = JSON.parse(
        await postJson(
          `${graphUrl}/v21.0/bench/messages`,
          JSON.stringify({
            messaging_product: "whatsapp",
            to: lead.contact.phone_e164.slice(1),
            type: "template",
            template: { name: "vitrina_welcome", language: { code: "es" } },
          }),
          { authorization: "Bearer bench" },
        ),
      );
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
