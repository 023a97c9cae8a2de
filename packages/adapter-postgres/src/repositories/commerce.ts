import type { StorageRepositories } from "@vitrina/core";
import type { OrderRecord, PaymentRecord, QuoteRecord } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, num, one, placeholders } from "../rows.js";

const toQuote = (r: any): QuoteRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  conversationId: r.conversation_id,
  currency: r.currency,
  items: r.items,
  subtotal: num(r.subtotal),
  vatRate: num(r.vat_rate),
  vat: num(r.vat),
  total: num(r.total),
  status: r.status,
  createdAt: iso(r.created_at),
  acceptedAt: isoOrNull(r.accepted_at),
});

const toOrder = (r: any): OrderRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  quoteId: r.quote_id,
  total: num(r.total),
  currency: r.currency,
  status: r.status,
  decidedBy: r.decided_by,
  approvedBy: r.approved_by,
  erpReference: r.erp_reference,
  confirmedAt: iso(r.confirmed_at),
});

const toPayment = (r: any): PaymentRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  orderId: r.order_id,
  contactId: r.contact_id,
  amount: num(r.amount),
  currency: r.currency,
  method: r.method,
  providerReference: r.provider_reference,
  receivedAt: iso(r.received_at),
});

const quoteValues = (x: QuoteRecord) => [
  x.id,
  x.workspaceId,
  x.contactId,
  x.conversationId,
  x.currency,
  json(x.items),
  x.subtotal,
  x.vatRate,
  x.vat,
  x.total,
  x.status,
  x.createdAt,
  x.acceptedAt,
];

/** Quotes, orders (unique per quote) and payments (unique per workspace and provider reference). */
export function commerceRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "quotes" | "orders" | "payments"> {
  const quoteColumns =
    "id, workspace_id, contact_id, conversation_id, currency, items, subtotal, vat_rate, vat, total, status, created_at, accepted_at";
  return {
    quotes: {
      async insert(quote) {
        await q.query(`INSERT INTO ${s}.quotes (${quoteColumns}) VALUES (${placeholders(13)})`, quoteValues(quote));
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.quotes WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toQuote),
      async update(quote) {
        const result = await q.query(
          `UPDATE ${s}.quotes SET workspace_id = $2, contact_id = $3, conversation_id = $4, currency = $5, items = $6, subtotal = $7,
           vat_rate = $8, vat = $9, total = $10, status = $11, created_at = $12, accepted_at = $13 WHERE id = $1`,
          quoteValues(quote),
        );
        return affected(result) > 0;
      },
      // The `status = 'issued'` guard is re-checked on the row's latest version after a concurrent
      // writer commits (READ COMMITTED), so a second acceptance updates nothing.
      accept: (workspaceId, id, at) =>
        one(
          q,
          `UPDATE ${s}.quotes SET status = 'accepted', accepted_at = $3
           WHERE workspace_id = $1 AND id = $2 AND status = 'issued' RETURNING *`,
          [workspaceId, id, at],
          toQuote,
        ),
    },
    orders: {
      async insert(o) {
        await q.query(
          `INSERT INTO ${s}.orders (id, workspace_id, contact_id, quote_id, total, currency, status, decided_by, approved_by, erp_reference, confirmed_at)
           VALUES (${placeholders(11)})`,
          [
            o.id,
            o.workspaceId,
            o.contactId,
            o.quoteId,
            o.total,
            o.currency,
            o.status,
            o.decidedBy,
            o.approvedBy,
            o.erpReference,
            o.confirmedAt,
          ],
        );
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.orders WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toOrder),
    },
    payments: {
      async insert(p) {
        await q.query(
          `INSERT INTO ${s}.payments (id, workspace_id, order_id, contact_id, amount, currency, method, provider_reference, received_at)
           VALUES (${placeholders(9)})`,
          [
            p.id,
            p.workspaceId,
            p.orderId,
            p.contactId,
            p.amount,
            p.currency,
            p.method,
            p.providerReference,
            p.receivedAt,
          ],
        );
      },
      listByOrder: (orderId) =>
        many(q, `SELECT * FROM ${s}.payments WHERE order_id = $1 ORDER BY received_at, id`, [orderId], toPayment),
    },
  };
}
