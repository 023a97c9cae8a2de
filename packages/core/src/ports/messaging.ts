/**
 * Sends messages to contacts (WhatsApp for the first message of a lead). A transport throws a
 * `MessagingError` when the provider refuses or fails; Vitrina records that as `failed`.
 */
export interface OutgoingMessage {
  channel: "whatsapp";
  /** E.164 with leading `+`. */
  to: string;
  /** Business-initiated WhatsApp messages must use an approved template. */
  template?: { name: string; language: string; bodyParameters: string[] };
  /** Free text, only valid inside the 24-hour customer-service window. */
  text?: string;
}

export interface SendResult {
  /** `sent`: the provider accepted it; `queued`: the provider holds it for later. */
  status: "sent" | "queued";
  providerMessageId: string | null;
}

export interface MessagingTransport {
  send(message: OutgoingMessage): Promise<SendResult>;
}
