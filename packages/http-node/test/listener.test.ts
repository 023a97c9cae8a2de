import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readBodyLimited } from "@vitrina/core/http";
import { serve, type RunningServer } from "@vitrina/http-node";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("serve / toNodeListener", () => {
  it("hands the handler the raw body byte for byte, with method, URL and headers", async () => {
    let seen: { method: string; url: string; header: string | null; body: Uint8Array } | undefined;
    server = await serve(
      async (request) => {
        seen = {
          method: request.method,
          url: request.url,
          header: request.headers.get("x-test"),
          body: new Uint8Array(await request.arrayBuffer()),
        };
        return new Response("ok", { status: 201, headers: { "x-reply": "1" } });
      },
      { port: 0, handleSignals: false },
    );
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x0d, 0x0a, 0xff, 0x00, 0x7d]);
    const response = await fetch(`${server.url}/a/b?c=1`, {
      method: "POST",
      body: bytes,
      headers: { "x-test": "yes" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-reply")).toBe("1");
    expect(seen?.method).toBe("POST");
    expect(seen?.url).toBe(`${server.url}/a/b?c=1`);
    expect(seen?.header).toBe("yes");
    expect([...(seen?.body ?? [])]).toEqual([...bytes]);
  });

  it("answers 413 for a declared body over the limit before reading any of it", async () => {
    let received = -1;
    server = await serve(
      async (request) => {
        received = 0;
        const reader = request.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) received += read.value.byteLength;
        return new Response("ok");
      },
      { port: 0, handleSignals: false, maxBodySize: 1000 },
    );
    const response = await fetch(server.url, { method: "POST", body: "x".repeat(2000) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "payload_too_large",
      message: "request body exceeds the limit of 1000 bytes",
      reasons: [],
    });
    expect(received).toBe(0);
  });

  it("lets a route with a lower limit of its own name it for a declared body over both", async () => {
    server = await serve(
      async (request) => {
        try {
          await readBodyLimited(request, 100);
          return new Response("ok");
        } catch (error) {
          return new Response((error as Error).message, { status: 413 });
        }
      },
      { port: 0, handleSignals: false, maxBodySize: 1000 },
    );
    const response = await fetch(server.url, { method: "POST", body: "x".repeat(2000) });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("request body exceeds the limit of 100 bytes");
  });

  it("answers /mcp's body over the listener's limit as a JSON-RPC error", async () => {
    let called = false;
    server = await serve(
      async (request) => {
        called = true;
        await request.arrayBuffer();
        return new Response("ok");
      },
      { port: 0, handleSignals: false, maxBodySize: 1000 },
    );
    const response = await fetch(`${server.url}/mcp`, { method: "POST", body: "x".repeat(2000) });
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, data: { code: "payload_too_large" } },
    });
    // The handler ran, but its body stream failed before any byte was read.
    expect(called).toBe(true);
  });

  it("answers 413 for a chunked body that grows past the limit", async () => {
    server = await serve(async (request) => new Response(String((await request.arrayBuffer()).byteLength)), {
      port: 0,
      handleSignals: false,
      maxBodySize: 1000,
    });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server!.url}/`,
        { method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 5; i++) req.write("y".repeat(400));
      req.end();
    });
    expect(status).toBe(413);
  });

  it("answers 400 for a Host header that can't form a URL, without calling the handler", async () => {
    let called = false;
    server = await serve(
      async () => {
        called = true;
        return new Response("ok");
      },
      { port: 0, handleSignals: false },
    );
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server!.url}/`, { headers: { host: "bad host[" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(called).toBe(false);
  });

  it("reads a target starting with // as a path, never as a host replacing the Host header", async () => {
    server = await serve(async (request) => new Response(request.url), { port: 0, handleSignals: false });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server!.port, "127.0.0.1", () =>
        socket.write("GET //evil.example/vitrina/mcp?x=1 HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => (text += String(chunk)));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer.split("\r\n\r\n")[1]).toBe("http://shop.example//evil.example/vitrina/mcp?x=1");
  });

  it("answers HEAD /healthz of a Vitrina 200 with no body, as uptime monitors expect", async () => {
    const { memoryStorage } = await import("@vitrina/adapter-memory");
    const { createVitrina, silentLogger } = await import("@vitrina/core");
    const { logMessagingTransport } = await import("@vitrina/core/demo");
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      logger: silentLogger,
      secretBox: Buffer.alloc(32, 3).toString("base64"),
      health: true,
    });
    server = await serve(vitrina.handler, { port: 0, handleSignals: false, onShutdown: () => vitrina.close() });
    const head = await fetch(`${server.url}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-request-id")).not.toBeNull();
    expect(await head.text()).toBe("");
    const post = await fetch(`${server.url}/healthz`, { method: "POST" });
    expect({ status: post.status, allow: post.headers.get("allow") }).toEqual({ status: 405, allow: "GET, HEAD" });
  });

  it("aborts the request signal when the client disconnects", async () => {
    let aborted!: () => void;
    const abortedPromise = new Promise<void>((resolve) => (aborted = resolve));
    server = await serve(
      async (request) => {
        request.signal.addEventListener("abort", () => aborted());
        await abortedPromise;
        return new Response("late");
      },
      { port: 0, handleSignals: false },
    );
    const controller = new AbortController();
    const pending = fetch(server.url, { signal: controller.signal }).catch(() => "client aborted");
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await pending).toBe("client aborted");
    await abortedPromise; // resolves only through the request's abort signal
  });

  it("lets in-flight requests finish on close", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = await serve(
      async () => {
        await gate;
        return new Response("finished");
      },
      { port: 0, handleSignals: false },
    );
    const inFlight = fetch(server.url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    release();
    expect(await inFlight).toBe("finished");
    await closed;
    server = undefined;
  });

  /** GET over a raw node:http request: status, headers as sent, and each body chunk as it arrived. */
  function rawGet(url: string, onChunk: (chunk: string) => void = () => {}) {
    return new Promise<{ headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      httpRequest(url, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          onChunk(chunk);
        });
        res.on("end", () => resolve({ headers: res.headers, body }));
      })
        .on("error", reject)
        .end();
    });
  }

  it("sends a body that is all there at once with content-length, not chunked", async () => {
    const json = JSON.stringify({ ok: true, text: "¿qué tal?" });
    server = await serve(
      async (request) =>
        new URL(request.url).pathname === "/empty" ? new Response("") : Response.json(JSON.parse(json)),
      { port: 0, handleSignals: false },
    );
    const answer = await rawGet(server.url);
    expect(answer.body).toBe(json);
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(json)));
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    const empty = await rawGet(`${server.url}/empty`);
    expect(empty).toMatchObject({ body: "", headers: { "content-length": "0" } });
  });

  it("streams a body still being produced: each chunk leaves before the next exists", async () => {
    let clientGot!: () => void;
    const firstArrived = new Promise<void>((resolve) => (clientGot = resolve));
    server = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode("first;"));
              // Produced only once the client holds the first chunk: buffering it would deadlock.
              await firstArrived;
              controller.enqueue(new TextEncoder().encode("second"));
              controller.close();
            },
          }),
        ),
      { port: 0, handleSignals: false },
    );
    const answer = await rawGet(server.url, (chunk) => {
      if (chunk.includes("first;")) clientGot();
    });
    expect(answer.body).toBe("first;second");
    expect(answer.headers["transfer-encoding"]).toBe("chunked");
    expect(answer.headers["content-length"]).toBeUndefined();
  });

  /** Resolves with what `settled` resolved with, or "still pending" once `ms` passed. */
  const within = <T>(settled: Promise<T>, ms: number) =>
    Promise.race([settled, new Promise<"still pending">((r) => setTimeout(r, ms, "still pending"))]);

  /** A GET over a raw socket that reads the headers, then leaves without reading the body. */
  function getAndLeave(url: string) {
    const request = httpRequest(url, (res) => {
      res.pause();
      setTimeout(() => request.destroy(), 100);
    });
    request.on("error", () => {});
    request.end();
  }

  it("cancels a streamed body when the client leaves while the server waits for the socket to drain", async () => {
    let cancelled!: (reason: string) => void;
    const cancel = new Promise<string>((resolve) => (cancelled = resolve));
    server = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            // Always more to send: the client not reading fills the socket and `write` asks to wait.
            pull: (controller) => controller.enqueue(new Uint8Array(256 * 1024)),
            cancel: () => cancelled("cancelled"),
          }),
        ),
      { port: 0, handleSignals: false },
    );
    getAndLeave(server.url);
    expect(await within(cancel, 3000)).toBe("cancelled");
  });

  it("cancels a streamed body when the client leaves while the producer has nothing to send yet", async () => {
    let cancelled!: (reason: string) => void;
    const cancel = new Promise<string>((resolve) => (cancelled = resolve));
    server = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            // A feed that sent two events and waits for the next (which never comes).
            start(controller) {
              controller.enqueue(new TextEncoder().encode("event: 1\n\n"));
              controller.enqueue(new TextEncoder().encode("event: 2\n\n"));
            },
            cancel: () => cancelled("cancelled"),
          }),
        ),
      { port: 0, handleSignals: false },
    );
    getAndLeave(server.url);
    expect(await within(cancel, 3000)).toBe("cancelled");
  });

  it("answers 500 for a response Node can't write, reports it, and keeps serving", async () => {
    const reported: unknown[] = [];
    server = await serve(
      async (request) => {
        const path = new URL(request.url).pathname;
        // Web Headers accept a control character in a value; HTTP (and Node) refuse it.
        if (path === "/bad-header") return new Response(null, { status: 204, headers: { "x-note": "a\u0001b" } });
        if (path === "/failing-body")
          return new Response(new ReadableStream({ pull: () => Promise.reject(new Error("feed failed")) }));
        return new Response("still serving");
      },
      { port: 0, handleSignals: false, onError: (error) => reported.push(error) },
    );
    const badHeader = await fetch(`${server.url}/bad-header`);
    expect(badHeader.status).toBe(500);
    expect(((await badHeader.json()) as { error: { code: string } }).error.code).toBe("internal");
    const failingBody = await fetch(`${server.url}/failing-body`);
    expect(failingBody.status).toBe(500);
    expect(
      reported.map((error) => (error as { code?: string; message: string }).code ?? (error as Error).message),
    ).toEqual(["ERR_INVALID_CHAR", "feed failed"]);
    expect(await (await fetch(server.url)).text()).toBe("still serving");
  });
});
