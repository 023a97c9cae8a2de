/**
 * One person, one WhatsApp thread, one identity per phone:
 * - at most one WhatsApp conversation that is not closed per contact (a partial unique index;
 *   lead intake and people reuse it instead of opening another). Threads that already break the
 *   rule (older releases opened one per lead) are closed first, keeping the most recent open.
 * - `possible_duplicate_of`: a contact created for a new phone whose email another contact holds.
 * - an index for "the contact's latest first message", read under the contact's row lock.
 */
export const migration006 = (s: string): string[] => [
  `UPDATE ${s}.conversations c SET status = 'closed'
     WHERE c.channel = 'whatsapp' AND c.status <> 'closed' AND EXISTS (
       SELECT 1 FROM ${s}.conversations newer
       WHERE newer.contact_id = c.contact_id AND newer.channel = 'whatsapp' AND newer.status <> 'closed'
         AND (newer.updated_at, newer.id) > (c.updated_at, c.id))`,
  `CREATE UNIQUE INDEX conversations_one_active_whatsapp_key ON ${s}.conversations (contact_id)
     WHERE channel = 'whatsapp' AND status <> 'closed'`,
  `ALTER TABLE ${s}.contacts ADD COLUMN possible_duplicate_of text REFERENCES ${s}.contacts(id) ON DELETE SET NULL`,
  `CREATE INDEX outbound_messages_contact_idx ON ${s}.outbound_messages (contact_id, created_at DESC)`,
];
