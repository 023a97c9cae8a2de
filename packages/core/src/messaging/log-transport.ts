import type { Logger } from "../ports/logger.js";
import type { MessagingTransport, OutgoingMessage } from "../ports/messaging.js";

/**
 * A transport for demos and development: sends nothing, logs what it would send, and keeps the
 * messages in `sent` so tests and examples can look at them.
 */
export function logMessagingTransport(logger: Logger) {
  const sent: OutgoingMessage[] = [];
  const transport: MessagingTransport & { sent: OutgoingMessage[] } = {
    sent,
    async send(message) {
      sent.push(message);
      logger.info({ to: message.to, template: message.template?.name, text: message.text }, "would send WhatsApp message");
      return { status: "sent", providerMessageId: `demo-${crypto.randomUUID()}` };
    },
  };
  return transport;
}
