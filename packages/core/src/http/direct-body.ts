/**
 * The protocol between core and a server binding that holds the raw request (today
 * `@vitrina/http-node`), so the hot routes skip the web Request's and Response's body streams:
 *
 * - A binding may hand core's handler (and only a handler marked with `DIRECT_BODY_HANDLER`, as
 *   `createVitrina`'s is) its own request object, `instanceof Request` with `method`, `url` and
 *   `headers`, carrying three methods under registered symbols:
 *   - `READ_BODY(maxBytes)` reads the body as bytes with no web stream in between;
 *   - `WEB_REQUEST()` returns the same request as a real `Request` (which also answers every other
 *     member);
 *   - `RESPOND(status, headers, text)` builds the answer as a Response the binding writes without
 *     reading a stream (a real Response, made lazily, if anything else is asked of it).
 * - `readBodyLimited` reads through `READ_BODY` when present: same bytes, limits and errors.
 * - The router hands a route the request as it came only when the route says so
 *   (`Route.readsBodyDirectly`: it reads the body through `readBodyLimited` and never passes the
 *   request to code outside core); every other route, and every hook it calls, gets `WEB_REQUEST`'s
 *   real Request, so nothing outside core ever sees the binding's object. An answer made through
 *   `RESPOND` goes back through the router and the request-id layer only; a handler wrapped around
 *   core's isn't marked, so it never gets a direct request, nor such an answer.
 *
 * Why: on Node 20 every web ReadableStream costs tens of microseconds to build (it is made
 * transferable), and a Request or Response with a body holds one; a signed lead is read, verified
 * and answered in a few hundred. `Symbol.for`, so that two copies of core, or core and a binding
 * built against another copy, still agree.
 */
export const READ_BODY = Symbol.for("vitrina.http.readBody");
export const WEB_REQUEST = Symbol.for("vitrina.http.webRequest");
export const RESPOND = Symbol.for("vitrina.http.respond");
export const DIRECT_BODY_HANDLER = Symbol.for("vitrina.http.directBodyHandler");

/**
 * Reads the whole body, or resolves `undefined` as soon as it exceeds `maxBytes` (the rest is
 * discarded, not buffered). Rejects with the binding's own error (code `payload_too_large`) when
 * the binding's cap is lower and is exceeded, or when the body can't be read.
 */
export type ReadBody = (maxBytes: number) => Promise<Uint8Array | undefined>;

export type Respond = (status: number, headers: Record<string, string>, body: string) => Response;

/** The binding's method under `key` on `request`, bound to it, or undefined for a plain Request. */
function methodOf<F>(request: Request, key: symbol): F | undefined {
  const method = (request as unknown as Record<symbol, unknown>)[key];
  return typeof method === "function" ? (method.bind(request) as F) : undefined;
}

export const bodyReaderOf = (request: Request) => methodOf<ReadBody>(request, READ_BODY);
export const responderOf = (request: Request) => methodOf<Respond>(request, RESPOND);

/** `request` as a real web Request: itself, unless a binding handed core its own object. */
export const webRequestOf = (request: Request): Request => methodOf<() => Request>(request, WEB_REQUEST)?.() ?? request;

/** Marks `handler` as one that takes a binding's direct-body requests (see above). */
export function acceptsDirectBody<H extends (request: Request) => Promise<Response>>(handler: H): H {
  Object.defineProperty(handler, DIRECT_BODY_HANDLER, { value: true });
  return handler;
}
