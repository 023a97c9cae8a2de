import type { Logger } from "../ports/logger.js";
import type { MessagingTransport, OutgoingMessage } from "../ports/messaging.js";

/** How many messages `sent` keeps by default: enough for tests and a demo tour, bounded for a long run. */
export const DEFAULT_KEEP_SENT = 1000;

/**
 * A transport for demos and development: sends nothing, logs what it would send, and keeps the
 * last `keep` messages (default 1000, oldest dropped first) in `sent` so tests and examples can look
 * at them. Bounded because a demo left running under load would otherwise grow without end.
 * Unlike everything else Vitrina logs, its log line carries the recipient's phone and the text (the
 * README's logging section says so): it is for demo data, never for real people's.
 */
export function logMessagingTransport(logger: Logger, options: { keep?: number } = {}) {
  const keep = options.keep ?? DEFAULT_KEEP_SENT;
  const sent: OutgoingMessage[] = [];
  const transport: MessagingTransport & { sent: OutgoingMessage[] } = {
    sent,
    async send(message) {
      sent.push(message);
      // shift, not splice(0, n): V8 drops an array's first element without moving the rest, while
      // splice moved all `keep` of them on every send once full (4 µs against 0.05 at the default).
      while (sent.length > keep) sent.shift();
      logger.info(
        { to: message.to, template: message.template?.name, text: message.text },
        "would send WhatsApp message",
      );
      return { status: "sent", providerMessageId: `demo-${crypto.randomUUID()}` };
    },
  };
  return transport;
}
