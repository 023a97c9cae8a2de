// The reference for lead intake on PostgreSQL: a hand-written node:http + pg server doing the same
// durable writes as Vitrina in two round trips, the least a correct design can do:
//   1. commit: one statement (its own transaction) that finds-or-creates the contact by phone,
//      registers the lead idempotently, and inserts its opportunity, its first-message record and
//      its consent evidence (a row in the consent ledger, as Vitrina keeps it);
//   2. send (the messaging transport: nothing, as the bench's Vitrina uses the log transport);
//   3. record: one statement that marks the message sent and opens the conversation with its first
//      message and a `conversation.started` event.
// No validation beyond the HMAC, no consent logic, no error model: a floor, not a competitor. Both
// statements go as named prepared statements, parsed and planned once per connection, as Vitrina's
// do. The bench checks afterwards that every lead wrote all its rows (countLeadWrites in ../lib.mjs).
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** A pg query config for a named prepared statement. */
export const named = (name, text, values) => ({ name, text, values });

/** Whether `body` carries the connector's HMAC signature in `req`'s headers (constant-time compare). */
export function signedBySecret(req, body, secret) {
  const timestamp = req.headers["x-vitrina-timestamp"];
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  const given = Buffer.from(String(req.headers["x-vitrina-signature"]), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The reference's two statements for Vitrina's schema `schema` (migrated): `commitLead` ($1–$14, see
 * the server below) and `recordSent` ($1–$7). Shared with the deployed reference
 * (reference-deployed-intake.mjs): with `queueDelivery`, `recordSent` also queues the event's
 * webhook delivery ($8 its id, $9 the subscription), as an outbox commits it with the event.
 */
export function referenceStatements(schema, { queueDelivery = false } = {}) {
  const s = `"${schema}"`;
  const commitLead = `
    WITH contact AS (
      INSERT INTO ${s}.contacts AS c (id, workspace_id, name, phone_e164, email, tags, whatsapp_consent, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, '[]', $6, $7, $7)
      ON CONFLICT ON CONSTRAINT contacts_phone_key DO UPDATE SET whatsapp_consent = EXCLUDED.whatsapp_consent, updated_at = EXCLUDED.updated_at
      RETURNING id
    ), lead AS (
      INSERT INTO ${s}.lead_events (id, workspace_id, connector_id, source_lead_id, contact_id, opportunity_id, eligible_for_whatsapp,
        payload, qualification_rejected, received_at)
      SELECT $8, $2, $9, $10, contact.id, $11, true, $12, '[]', $7 FROM contact
      ON CONFLICT ON CONSTRAINT lead_events_source_key DO NOTHING RETURNING id, contact_id
    ), opportunity AS (
      INSERT INTO ${s}.opportunities (id, workspace_id, contact_id, lead_event_id, stage, source, qualification, created_at)
      SELECT $11, $2, lead.contact_id, lead.id, 'new', 'bench', '[]', $7 FROM lead
    ), outbound AS (
      INSERT INTO ${s}.outbound_messages (id, workspace_id, lead_event_id, contact_id, channel, status, reason, handed_to_provider_at,
        created_at, updated_at)
      SELECT $13, $2, lead.id, lead.contact_id, 'whatsapp', 'queued', 'handed to the messaging provider', $7, $7, $7 FROM lead
    ), consent AS (
      INSERT INTO ${s}.consent_ledger (id, workspace_id, contact_id, kind, source, source_ref, evidence, occurred_at, recorded_at,
        dedupe_key)
      SELECT $14, $2, lead.contact_id, 'granted', 'lead', $9, jsonb_build_object('lead_event_id', lead.id, 'consent_timestamp', $7::text),
        $7, $7, 'lead:' || lead.id FROM lead
    )
    SELECT id, contact_id FROM lead`;
  const recordSent = `
    WITH sent AS (
      UPDATE ${s}.outbound_messages SET status = 'sent', provider_message_id = $3, provider_answered_at = $4, updated_at = $4
      WHERE id = $1 RETURNING contact_id
    ), conversation AS (
      INSERT INTO ${s}.conversations (id, workspace_id, contact_id, channel, status, created_at, updated_at)
      SELECT $5, $2, sent.contact_id, 'whatsapp', 'open', $4, $4 FROM sent RETURNING id, contact_id
    ), message AS (
      INSERT INTO ${s}.messages (id, workspace_id, conversation_id, sender, content, created_at)
      SELECT $6, $2, conversation.id, 'agent', 'Hola', $4 FROM conversation
    ), event AS (
      INSERT INTO ${s}.events (id, workspace_id, type, created, data)
      SELECT $7, $2, 'conversation.started', $4,
        jsonb_build_object('conversation_id', conversation.id, 'contact_id', conversation.contact_id, 'channel', 'whatsapp',
          'started_by', 'lead_intake')
      FROM conversation RETURNING id
    )
    ${
      queueDelivery
        ? `INSERT INTO ${s}.webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, status, attempt_count,
             next_attempt_at, retry_until, created_at)
           SELECT $8, $2, $9, event.id, 'conversation.started', 'pending', 0, $4, $4::timestamptz + interval '24 hours', $4 FROM event`
        : "SELECT id FROM event"
    }`;

  return { commitLead, recordSent };
}

/**
 * Runs the reference's first statement for `lead` (parsed) and its raw `body` through `query` (one
 * named statement); resolves `{ rows, outboundId }`: the lead's row (none for a duplicate) and the
 * id its first message got.
 */
export async function commitLeadOn(query, commitLead, ids, lead, body) {
  const outboundId = randomUUID();
  const values = commitLeadValues(ids, lead, body, new Date().toISOString(), outboundId);
  const { rows } = await query(named("reference_commit_lead", commitLead, values));
  return { rows, outboundId };
}

/** The values of `commitLead` for `lead` (parsed), its raw `body`, and the id its first message gets. */
function commitLeadValues({ workspaceId, connectorId }, lead, body, now, outboundId) {
  return [
    randomUUID(),
    workspaceId,
    lead.contact.name ?? null,
    lead.contact.phone_e164,
    lead.contact.email ?? null,
    JSON.stringify(lead.whatsapp_consent ?? null),
    now,
    randomUUID(),
    connectorId,
    lead.source_lead_id,
    randomUUID(),
    body,
    outboundId,
    randomUUID(),
  ];
}

/**
 * A node:http server for signed leads: reads the body, checks the HMAC (401 if wrong), and answers
 * `{ accepted, duplicate, lead_event_id }` from what `register(lead, bodyText)` resolves to:
 * `{ leadEventId }` (null for a duplicate) and optionally `after`, run once the answer is written
 * (the deployed reference's webhook delivery, as a worker would send it). Listening on 127.0.0.1:0.
 */
export async function startSignedLeadServer({ secret, register }) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      if (!signedBySecret(req, body, secret)) {
        res.writeHead(401).end();
        return;
      }
      try {
        const text = body.toString("utf8");
        const { leadEventId, after } = await register(JSON.parse(text), text);
        const answer = JSON.stringify({ accepted: true, duplicate: leadEventId === null, lead_event_id: leadEventId });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
        res.end(answer);
        await after?.();
      } catch (error) {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else console.error("reference: work after the answer failed:", error);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** Starts the reference on `pool` with Vitrina's schema `schema` (migrated), for one workspace and connector. */
export async function startReferencePostgresIntake({ pool, schema, workspaceId, connectorId, secret }) {
  const { commitLead, recordSent } = referenceStatements(schema);
  return startSignedLeadServer({
    secret,
    async register(lead, body) {
      const query = (config) => pool.query(config);
      const { rows, outboundId } = await commitLeadOn(query, commitLead, { workspaceId, connectorId }, lead, body);
      // The send: the bench's Vitrina uses the log transport, which costs nothing either.
      if (rows.length > 0) {
        await pool.query(
          named("reference_record_sent", recordSent, [
            outboundId,
            workspaceId,
            `wamid.${rows[0].id}`,
            new Date().toISOString(),
            randomUUID(),
            randomUUID(),
            `evt_${randomUUID().replace(/-/g, "")}`,
          ]),
        );
      }
      return { leadEventId: rows[0]?.id ?? null };
    },
  });
}
