/**
 * Sends messages to contacts (WhatsApp for the first message of a lead). A transport throws a
 * `MessagingError` when the provider refuses or fails; Vitrina records that as `failed`.
 */
export interface OutgoingMessage {
  channel: "whatsapp";
  /** The workspace sending it: a workspace with its own WhatsApp channel sends through that number. */
  workspaceId?: string;
  /** E.164 with leading `+`. */
  to: string;
  /** Business-initiated WhatsApp messages must use an approved template. */
  template?: { name: string; language: string; bodyParameters: string[] };
  /** Free text, only valid inside the 24-hour customer-service window. */
  text?: string;
  /**
   * Echoed by the provider on the message's delivery statuses (WhatsApp `biz_opaque_callback_data`):
   * the link from a status back to the message when the send's own answer was lost.
   */
  correlationId?: string;
}

export interface SendResult {
  /**
   * `queued`: the provider accepted it, and its delivery reports (sent, delivered, read, failed)
   * come later by webhook (the WhatsApp Cloud API always answers this way); `sent`: a transport with
   * no later reports (the demo's log transport) counts it as sent at once.
   */
  status: "sent" | "queued";
  providerMessageId: string | null;
}

export interface MessagingTransport {
  send(message: OutgoingMessage): Promise<SendResult>;
}
