import { Agent, request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { serve, type RunningServer } from "@vitrina/http-node";

let server: RunningServer | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  agent?.destroy();
  await server?.close();
  server = undefined;
});

/** A GET on `agent`'s one keep-alive connection: status, Connection header and body. */
function get(url: string, through: Agent) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    httpRequest(url, { agent: through }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("graceful close (drainServer) with keep-alive clients", () => {
  it("closes a keep-alive connection once its in-flight request is answered, without waiting for the keep-alive timeout", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = await serve(
      async (request) => {
        if (new URL(request.url).pathname === "/slow") await gate;
        return new Response("done");
      },
      { port: 0, handleSignals: false, shutdownTimeoutMs: 8_000 },
    );
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(`${server.url}/`, agent)).body).toBe("done"); // the connection is now open and reused
    const inFlight = get(`${server.url}/slow`, agent);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const closed = server.close();
    release();
    expect(await inFlight).toMatchObject({ status: 200, connection: "close", body: "done" });
    await closed;
    server = undefined;
    // Before: the idle connection held `close` open for the keep-alive timeout (5 s).
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("closes a keep-alive connection once a response already streaming when the drain began has ended", async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    server = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode("first;"));
              await finished;
              controller.enqueue(new TextEncoder().encode("last"));
              controller.close();
            },
          }),
        ),
      { port: 0, handleSignals: false, shutdownTimeoutMs: 8_000 },
    );
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const streaming = get(server.url, agent);
    await new Promise((r) => setTimeout(r, 100)); // its headers (keep-alive) are out
    const started = Date.now();
    const closed = server.close();
    finish();
    expect(await streaming).toMatchObject({ status: 200, connection: "keep-alive", body: "first;last" });
    await closed;
    server = undefined;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
