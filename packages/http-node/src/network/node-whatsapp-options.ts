import type { GraphPost } from "@vitrina/core/whatsapp";
import { request } from "undici";
import { untilAborted } from "./pinned-sender.js";

/** The most of a Graph API answer read: its answers are a few hundred bytes, its errors a few KB. */
const MAX_GRAPH_ANSWER_BYTES = 64 * 1024;

/**
 * The WhatsApp Cloud API's POSTs on undici's request API, for `createVitrina({ whatsapp })`: what
 * `fetch` builds for every call and a Graph API send never needs (a Request and a Response, web
 * streams, redirect and CORS bookkeeping) took about 7 % of the deployed demo server's CPU per lead;
 * this takes a fifth of that. Answers are read up to 64 KiB, then the connection is dropped.
 *
 * ```ts
 * createVitrina({ ..., whatsapp: nodeWhatsAppOptions() });
 * ```
 */
export function nodeWhatsAppOptions(): { post: GraphPost } {
  return {
    async post({ url, headers, body, signal }) {
      const response = await untilAborted(request(url, { method: "POST", headers, body, signal }), signal);
      const chunks: Buffer[] = [];
      let received = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        received += chunk.byteLength;
        // Leaving the loop destroys the body and drops the connection: the rest is never downloaded.
        if (received >= MAX_GRAPH_ANSWER_BYTES) break;
      }
      const answer = Buffer.concat(chunks).subarray(0, MAX_GRAPH_ANSWER_BYTES);
      return { status: response.statusCode, text: answer.toString("utf8") };
    },
  };
}
