/**
 * The protocol between core and a server binding that holds the raw request (today
 * `@vitrina/http-node`), so the hot routes skip the web Request's body stream:
 *
 * - A binding may hand core's handler (and only a handler marked with `DIRECT_BODY_HANDLER`, as
 *   `createVitrina`'s is) a request carrying two methods under registered symbols: `READ_BODY`,
 *   which reads the body as bytes with no web stream in between, and `WEB_REQUEST`, which returns
 *   the same request as a real `Request`.
 * - `readBodyLimited` reads through `READ_BODY` when present: same bytes, limits and errors.
 * - The router hands a route the request as it came only when the route says so
 *   (`Route.readsBodyDirectly`: it reads the body through `readBodyLimited` and never passes the
 *   request to code outside core); every other route, and every hook it calls, gets `WEB_REQUEST`'s
 *   real Request, so nothing outside core ever sees the binding's object.
 *
 * Why: on Node 20 every web ReadableStream costs tens of microseconds to build (it is made
 * transferable), and a Request's body is one; a signed lead is read, verified and answered in a
 * few hundred. `Symbol.for`, so that two copies of core, or core and a binding built against
 * another copy, still agree.
 */
export const READ_BODY = Symbol.for("vitrina.http.readBody");
export const WEB_REQUEST = Symbol.for("vitrina.http.webRequest");
export const DIRECT_BODY_HANDLER = Symbol.for("vitrina.http.directBodyHandler");
/**
 * A third method a direct-body request may carry: it builds the answer to itself as a Response the
 * binding writes without reading a web stream (a real Response, built lazily, if anything else
 * asks). Only for answers that go straight back to the binding: core's router and request-id layer
 * pass them on, never to user code (a wrapped handler isn't marked, so it gets no direct request).
 */
export const RESPOND = Symbol.for("vitrina.http.respond");
export type Respond = (status: number, headers: Record<string, string>, body: string) => Response;

/**
 * Reads the whole body, or resolves `undefined` as soon as it exceeds `maxBytes` (the rest is
 * discarded, not buffered). Rejects with the binding's own error (code `payload_too_large`) when
 * the binding's cap is lower and is exceeded, or when the body can't be read.
 */
export type ReadBody = (maxBytes: number) => Promise<Uint8Array | undefined>;

type DirectRequest = { [READ_BODY]?: unknown; [WEB_REQUEST]?: unknown; [RESPOND]?: unknown };

export function bodyReaderOf(request: Request): ReadBody | undefined {
  const read = (request as unknown as DirectRequest)[READ_BODY];
  return typeof read === "function" ? (read.bind(request) as ReadBody) : undefined;
}

/** `request` as a real web Request: itself, unless a binding handed core its own object. */
export function webRequestOf(request: Request): Request {
  const toWeb = (request as unknown as DirectRequest)[WEB_REQUEST];
  return typeof toWeb === "function" ? (toWeb.call(request) as Request) : request;
}

/** Marks `handler` as one that takes a binding's direct-body requests (see above). */
export function acceptsDirectBody<H extends (request: Request) => Promise<Response>>(handler: H): H {
  Object.defineProperty(handler, DIRECT_BODY_HANDLER, { value: true });
  return handler;
}

/** The binding's `RESPOND` of a direct-body request, or undefined for a plain Request. */
export function responderOf(request: Request): Respond | undefined {
  const respond = (request as unknown as DirectRequest)[RESPOND];
  return typeof respond === "function" ? (respond.bind(request) as Respond) : undefined;
}
