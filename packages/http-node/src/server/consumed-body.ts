import type { IncomingMessage } from "node:http";

/** The hint every report of a consumed body carries (core's words, so both answers name the same fix). */
export { MOUNT_BEFORE_BODY_PARSERS } from "@vitrina/core/http";

/**
 * True when something read the request stream before Vitrina saw it. A parser such as
 * `express.json()` reads the stream to its end and sets `req.body`; handing that spent stream on
 * would wait for data that never comes (the hang of a 300 s request timeout). Checked before any
 * read, so the answer is immediate.
 */
export function bodyAlreadyConsumed(req: IncomingMessage): boolean {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return false;
  // `readableEnded`: the 'end' event was emitted, so every byte went to another reader.
  // `body`/`_body`: body-parser and co. mark the request even when the stream state is hidden.
  const marked = req as IncomingMessage & { body?: unknown; _body?: unknown };
  return req.readableEnded || marked.body !== undefined || marked._body === true;
}
