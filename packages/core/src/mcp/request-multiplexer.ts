import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from "@modelcontextprotocol/sdk/types.js";

interface Pending<Context> {
  clientId: RequestId;
  context: Context;
  answer: (response: JSONRPCMessage) => void;
}

/**
 * The transport behind the one SDK `Server` that answers every HTTP request of `/mcp`.
 *
 * The SDK's stateless HTTP transport answers exactly one request, so the usual pattern builds a
 * `Server` and a transport per request, which cost more than the tool call itself (the bench's
 * "server per request" row). This transport instead carries any number of requests at once
 * through a single connected `Server`: each request gets an id of our own on the way in (two
 * clients both sending `id: 1` must not meet inside the server), its response goes back to the
 * HTTP request that asked, under the client's id. Each request's context (who is calling, the
 * request's logger) travels beside it, found by the id the handler sees in `extra.requestId`.
 *
 * Only what a stateless, JSON-only server can use passes: requests in, responses out. Client
 * notifications never reach the server: a `notifications/cancelled` names a request id, and here
 * ids are shared by every caller, so passing it on would let one caller cancel another's request.
 * (With a server per request, as the SDK's stateless pattern does, a notification reached a server
 * that answered nothing else, so dropping it changes nothing a client could observe.) Messages the
 * server would push to the client (progress, logging, server-to-client requests) have no stream to
 * travel on and are dropped, as the SDK's JSON-response mode does.
 */
export class RequestMultiplexer<Context> implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #pending = new Map<number, Pending<Context>>();
  #nextId = 0;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!("id" in message) || "method" in message) return;
    const pending = this.#pending.get(message.id as number);
    if (pending === undefined) return;
    this.#pending.delete(message.id as number);
    pending.answer({ ...message, id: pending.clientId });
  }

  /** Hands one client request to the server; resolves with its response, under the client's id. */
  request(message: JSONRPCRequest, context: Context): Promise<JSONRPCMessage> {
    const id = ++this.#nextId;
    return new Promise((answer) => {
      this.#pending.set(id, { clientId: message.id, context, answer });
      this.onmessage?.({ ...message, id });
    });
  }

  /** The context and the client's own id of a request in flight, by the id the server sees. */
  inFlight(serverId: RequestId): { clientId: RequestId; context: Context } | undefined {
    return typeof serverId === "number" ? this.#pending.get(serverId) : undefined;
  }
}
