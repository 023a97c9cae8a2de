/**
 * Records for the commercial flow: quotes, orders and payments. Money is stored in major units
 * (e.g. CLP pesos, USD dollars) already rounded to the currency's minor unit by the server.
 */

export interface QuoteItem {
  sku: string;
  quantity: number;
  unitPrice: number;
  /** quantity × unitPrice, rounded to the currency's minor unit. */
  lineTotal: number;
}

export type QuoteStatus = "issued" | "accepted";

export interface QuoteRecord {
  id: string;
  workspaceId: string;
  contactId: string;
  conversationId: string | null;
  currency: string;
  items: QuoteItem[];
  subtotal: number;
  /** Decimal fraction, e.g. 0.19 for 19 %. */
  vatRate: number;
  vat: number;
  total: number;
  status: QuoteStatus;
  createdAt: string;
  acceptedAt: string | null;
}

export interface OrderRecord {
  id: string;
  workspaceId: string;
  contactId: string;
  quoteId: string | null;
  total: number;
  currency: string;
  status: "confirmed";
  /** Agent id that decided the order. */
  decidedBy: string;
  /** User id that approved it. */
  approvedBy: string;
  /** The ERP's reference after synchronisation, when there is one. */
  erpReference: string | null;
  confirmedAt: string;
}

export interface PaymentRecord {
  id: string;
  workspaceId: string;
  orderId: string;
  contactId: string;
  amount: number;
  currency: string;
  /** `transfer`, `card`, `cash`, … as the provider names it. */
  method: string;
  providerReference: string | null;
  receivedAt: string;
}
