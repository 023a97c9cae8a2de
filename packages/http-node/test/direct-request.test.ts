import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  createRouter,
  DIRECT_BODY_HANDLER,
  READ_BODY,
  readBodyLimited,
  RESPOND,
  WEB_REQUEST,
  type Respond,
} from "@vitrina/core/http";
import { silentLogger } from "@vitrina/core";
import { serve, type RunningServer } from "@vitrina/http-node";

// Core's own handler is marked DIRECT_BODY_HANDLER, and http-node then hands it a stand-in Request
// read straight off the socket (src/direct-request.ts). These tests mark a handler the same way.

type DirectRequest = Request & {
  [READ_BODY]: (maxBytes: number) => Promise<Uint8Array | undefined>;
  [WEB_REQUEST]: () => Request;
  [RESPOND]: Respond;
};

function marked(handler: (request: DirectRequest) => Promise<Response>) {
  Object.defineProperty(handler, DIRECT_BODY_HANDLER, { value: true });
  return handler as unknown as (request: Request) => Promise<Response>;
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (handler: (request: Request) => Promise<Response>, maxBodySize?: number) => {
  server = await serve(handler, { port: 0, handleSignals: false, ...(maxBodySize ? { maxBodySize } : {}) });
  return server.url;
};

/** POSTs `chunks` as a chunked body over a raw node:http request; resolves status and body. */
function postChunks(url: string, chunks: Uint8Array[]) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const tooLargeMessage = async (request: Request, limit: number) =>
  readBodyLimited(request, limit).then(
    () => "read",
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );

describe("a handler marked DIRECT_BODY_HANDLER (core's own) gets a Request read straight off the socket", () => {
  it("with method, URL, headers and the body byte for byte, and answers through RESPOND with content-length", async () => {
    let seen: Record<string, unknown> = {};
    const url = await start(
      marked(async (request) => {
        const body = await readBodyLimited(request, 1000);
        seen = {
          isRequest: request instanceof Request,
          standIn: Object.getPrototypeOf(request) !== Request.prototype,
          method: request.method,
          url: request.url,
          header: request.headers.get("x-test"),
          body: [...body],
        };
        const response = request[RESPOND](201, { "content-type": "application/json" }, '{"ok":"¿sí?"}');
        response.headers.set("x-request-id", "req-1"); // as core's request-id layer does
        return response;
      }),
    );
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x0d, 0x0a, 0xff, 0x00, 0x7d]);
    const response = await fetch(`${url}/a/b?c=1`, { method: "POST", body: bytes, headers: { "x-test": "yes" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("req-1");
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength('{"ok":"¿sí?"}')));
    expect(response.headers.get("transfer-encoding")).toBeNull();
    expect(await response.json()).toEqual({ ok: "¿sí?" });
    expect(seen).toEqual({
      isRequest: true,
      standIn: true,
      method: "POST",
      url: `${url}/a/b?c=1`,
      header: "yes",
      body: [...bytes],
    });
  });

  it("reads any body as sent, however it was split into chunks (property)", async () => {
    let received: Uint8Array | undefined;
    const url = await start(
      marked(async (request) => {
        received = await readBodyLimited(request, 64 * 1024);
        return request[RESPOND](200, {}, String(received.byteLength));
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 700 }), { maxLength: 8 }), async (chunks) => {
        const { status, body } = await postChunks(url, chunks);
        const sent = Buffer.concat(chunks);
        expect(status).toBe(200);
        expect(body).toBe(String(sent.byteLength));
        expect(Buffer.from(received!).equals(sent)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses a body over the route's limit, declared or chunked, naming that limit", async () => {
    const url = await start(
      marked(async (request) => request[RESPOND](413, {}, await tooLargeMessage(request, 100))),
      1000,
    );
    const declared = await fetch(url, { method: "POST", body: "x".repeat(500) });
    expect(await declared.text()).toBe("payload_too_large: request body exceeds the limit of 100 bytes");
    const chunked = await postChunks(url, [Buffer.alloc(60, 1), Buffer.alloc(60, 2)]);
    expect(chunked.body).toBe("payload_too_large: request body exceeds the limit of 100 bytes");
  });

  it("refuses a chunked body over the listener's lower cap, naming the cap, and the client reads the answer", async () => {
    const url = await start(
      marked(async (request) => request[RESPOND](413, {}, await tooLargeMessage(request, 5000))),
      1000,
    );
    const { status, body } = await postChunks(url, [Buffer.alloc(600), Buffer.alloc(600), Buffer.alloc(600)]);
    expect(status).toBe(413);
    expect(body).toBe("payload_too_large: request body exceeds the limit of 1000 bytes");
  });

  it("fails the read with invalid_argument when the client leaves mid-body, and keeps serving", async () => {
    let failure!: (message: string) => void;
    const failed = new Promise<string>((resolve) => (failure = resolve));
    const url = await start(
      marked(async (request) => {
        failure(await tooLargeMessage(request, 10_000));
        return request[RESPOND](200, {}, "ok");
      }),
    );
    const req = httpRequest(url, { method: "POST", headers: { "content-length": "5000" } });
    req.on("error", () => {});
    req.write("x".repeat(100));
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    expect(await failed).toBe("invalid_argument: request body could not be read");
    const next = await fetch(url, { method: "POST", body: "y" });
    expect(await next.text()).toBe("ok");
  });

  it("is a real Request for everything else: clone, text, signal, and new Request() of its web request", async () => {
    let seen: Record<string, unknown> = {};
    const url = await start(
      marked(async (request) => {
        const copy = request.clone();
        const rebuilt = new Request(request[WEB_REQUEST]()); // takes the body over, as for any Request
        seen = {
          cloned: await copy.text(),
          rebuilt: [rebuilt.url, await rebuilt.text()],
          usedUp: request.bodyUsed,
          signal: request.signal instanceof AbortSignal,
        };
        return new Response("ok");
      }),
    );
    const response = await fetch(`${url}/x`, { method: "PUT", body: "hola" });
    expect(await response.text()).toBe("ok");
    expect(seen).toEqual({ cloned: "hola", rebuilt: [`${url}/x`, "hola"], usedUp: true, signal: true });
  });

  it("keeps the bytes READ_BODY took for its web request, and refuses a second read", async () => {
    let seen: Record<string, unknown> = {};
    const url = await start(
      marked(async (request) => {
        const first = await request[READ_BODY](1000);
        seen = {
          first: Buffer.from(first!).toString(),
          again: await request[READ_BODY](1000).catch((error: Error) => error.message),
          web: await request[WEB_REQUEST]().text(),
        };
        return request[RESPOND](200, {}, "ok");
      }),
    );
    await fetch(url, { method: "POST", body: '{"a":1}' });
    expect(seen).toEqual({ first: '{"a":1}', again: "the request body was already read", web: '{"a":1}' });
  });

  it("aborts the signal when the client disconnects", async () => {
    let aborted!: () => void;
    const abortedPromise = new Promise<void>((resolve) => (aborted = resolve));
    const url = await start(
      marked(async (request) => {
        request.signal.addEventListener("abort", () => aborted());
        await abortedPromise;
        return new Response("late");
      }),
    );
    const controller = new AbortController();
    const pending = fetch(url, { signal: controller.signal }).catch(() => "client aborted");
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await pending).toBe("client aborted");
    await abortedPromise;
  });

  it("writes a RESPOND answer whose body something already asked for from its real Response", async () => {
    let text = "";
    const url = await start(
      marked(async (request) => {
        const response = request[RESPOND](202, { "x-a": "1" }, "the answer");
        text = await response.clone().text(); // builds the real Response behind it
        return response;
      }),
    );
    const response = await fetch(url);
    expect(response.status).toBe(202);
    expect(response.headers.get("x-a")).toBe("1");
    expect(await response.text()).toBe("the answer");
    expect(text).toBe("the answer");
  });

  it("reaches only routes marked readsBodyDirectly as it came; every other route gets a real Request", async () => {
    const prototypes: Record<string, boolean> = {};
    const route = (path: string, readsBodyDirectly: boolean) => ({
      method: "POST",
      path,
      readsBodyDirectly,
      async handler(request: Request) {
        prototypes[path] = Object.getPrototypeOf(request) === Request.prototype;
        await readBodyLimited(request, 100);
        return new Response("ok");
      },
    });
    const router = createRouter([route("/direct", true), route("/plain", false)], silentLogger);
    const url = await start(marked(async (request) => router(request)));
    await fetch(`${url}/direct`, { method: "POST", body: "a" });
    await fetch(`${url}/plain`, { method: "POST", body: "b" });
    expect(prototypes).toEqual({ "/direct": false, "/plain": true });
  });

  it("is never handed to a handler that isn't marked", async () => {
    let realRequest = false;
    const url = await start(async (request) => {
      realRequest = Object.getPrototypeOf(request) === Request.prototype;
      return new Response("ok");
    });
    await fetch(url);
    expect(realRequest).toBe(true);
  });
});
