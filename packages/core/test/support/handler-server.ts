/** A server for a fetch handler, as `serve` from @vitrina/http-node returns one. */
export type Listen = (
  handler: (request: Request) => Promise<Response>,
) => Promise<{ url: string; close(): Promise<void> }>;

/** The origin in-process requests are addressed to. */
export const IN_PROCESS_ORIGIN = "http://vitrina.test";

/**
 * Where a harness sends its requests: straight to `handler` in this process (no socket), or, with
 * `listen`, to the server it starts (the Node binding's tests). Either way the harness's tests
 * use the same `fetch(url, init)` and `url`.
 */
export async function openHandler(handler: (request: Request) => Promise<Response>, listen?: Listen) {
  if (listen !== undefined) {
    const server = await listen(handler);
    return { url: server.url, fetch: globalThis.fetch, close: () => server.close() };
  }
  return {
    url: IN_PROCESS_ORIGIN,
    fetch: (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init)),
    close: async () => {},
  };
}
