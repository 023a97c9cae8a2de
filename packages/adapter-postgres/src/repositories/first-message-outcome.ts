import type { FirstMessageOutcome, FirstMessageThread, RecordedOutcome } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { json, textPerSchema } from "../rows.js";
import { fanOutCtes } from "./events.js";
import type { DeliveriesQueued } from "../notifications.js";

const outcomeValues = (o: FirstMessageOutcome) => [
  o.id,
  o.status,
  o.reason,
  o.providerMessageId,
  o.providerAnsweredAt,
  o.updatedAt,
];

/** A failed send: only the outcome's columns change, so a concurrent write to the others survives. */
export async function recordOutcomeOnly(
  q: Queryable,
  s: string,
  outcome: FirstMessageOutcome,
): Promise<RecordedOutcome> {
  const result = await q.query(
    `UPDATE ${s}.outbound_messages SET status = $2, reason = $3, provider_message_id = $4, provider_answered_at = $5, updated_at = $6
     WHERE id = $1`,
    outcomeValues(outcome),
  );
  return { recorded: affected(result) > 0, conversationId: null, opened: false, deliveries: 0 };
}

/** The text of `recordOutcomeInThread`'s statement, for schema `s`. */
const inThreadText = textPerSchema(
  (s) =>
    `WITH contact AS (
       SELECT id FROM ${s}.contacts WHERE id = $9 AND workspace_id = $8 FOR KEY SHARE
     ), outcome AS (
       UPDATE ${s}.outbound_messages SET status = $2, reason = $3, provider_message_id = $4, provider_answered_at = $5, updated_at = $6
       WHERE id = $1 AND EXISTS (SELECT 1 FROM contact) RETURNING id
     ), thread AS (
       INSERT INTO ${s}.conversations (id, workspace_id, contact_id, channel, status, escalated_at, created_at, updated_at)
       SELECT $7, $8, $9, $10, $11, NULL, $12, $13 FROM outcome
       ON CONFLICT (contact_id) WHERE channel = 'whatsapp' AND status <> 'closed'
       DO UPDATE SET updated_at = $17
       RETURNING id, id = $7 AS opened
     ), message AS (
       INSERT INTO ${s}.messages (id, workspace_id, conversation_id, sender, content, created_at, provider_message_id)
       SELECT $14, $8, thread.id, $15, $16, $17, $23::text FROM thread
     ), event AS (
       INSERT INTO ${s}.events (id, workspace_id, type, created, data)
       SELECT $18, $8, $19, $20, $21 FROM thread WHERE opened
       RETURNING id
     ), ${fanOutCtes(s, {
       eventId: "$18",
       workspaceId: "$8",
       type: "$19",
       created: "$20",
       retryUntil: "$22",
       when: "EXISTS (SELECT 1 FROM event)",
     })}
     SELECT (SELECT count(*) FROM outcome)::int AS recorded, thread.id AS conversation_id,
       coalesce(thread.opened, false) AS opened, (SELECT count(*) FROM delivery)::int AS deliveries
     FROM (VALUES (1)) AS one LEFT JOIN thread ON true`,
);

/**
 * A first message that went out, in one statement (its own transaction): the outcome, the message
 * in the contact's active WhatsApp thread or in a new one, and for a new one `conversation.started`
 * with its deliveries. Before, this took a transaction of eight round trips with the contact locked.
 *
 * The thread is found-or-opened by `INSERT … ON CONFLICT` on `conversations_one_active_whatsapp_key`
 * (one WhatsApp conversation that is not closed per contact), not by a SELECT: under READ
 * COMMITTED a SELECT in this statement sees the snapshot taken when it began, so it could miss a
 * thread another first message opened meanwhile. ON CONFLICT checks the index against what is
 * committed now: it waits for a concurrent insert of the same contact's thread and then continues
 * that one (`DO UPDATE` moves only `updated_at`, as `conversations.touch` does; an escalation
 * written meanwhile survives); if the active thread is closed meanwhile, it retries and opens a new
 * one. `id = $7` tells which happened: the candidate's id comes back only when it was inserted.
 *
 * Locks are taken in the order every claim takes them, the contact's row before the message's:
 * `contact` (the key-share lock the new thread's foreign key would take anyway) is evaluated, as
 * the UPDATE's uncorrelated `EXISTS`, before the message row is locked. Taken later, by the
 * foreign key check after the UPDATE, it deadlocked with a retry's claim of the same message
 * (contact `FOR UPDATE`, then the message row) in about one run in six of the retry race test.
 *
 * Every data-modifying CTE runs to completion whether or not the final SELECT reads it; each one
 * after `outcome` reads from the one before, so an unknown message id writes nothing. Workers
 * elsewhere are told once it commits, and only when a delivery was written (see DeliveriesQueued).
 */
export async function recordOutcomeInThread(
  q: Queryable,
  s: string,
  queued: DeliveriesQueued,
  outcome: FirstMessageOutcome,
  { conversation: c, message: m, started: e, retryUntil }: FirstMessageThread,
): Promise<RecordedOutcome> {
  const { rows } = await q.query(inThreadText(s), [
    ...outcomeValues(outcome),
    c.id,
    c.workspaceId,
    c.contactId,
    c.channel,
    c.status,
    c.createdAt,
    c.updatedAt,
    m.id,
    m.sender,
    m.content,
    m.createdAt,
    e.id,
    e.type,
    e.created,
    json(e.data),
    retryUntil,
    m.providerMessageId ?? null,
  ]);
  const row = rows[0];
  if (row.deliveries > 0) queued();
  return {
    recorded: row.recorded > 0,
    conversationId: row.conversation_id ?? null,
    opened: row.opened,
    deliveries: row.deliveries,
  };
}
