import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BodyAlreadyConsumedError, toNodeListener } from "@vitrina/http-node";

// The Express 5 case (express.json() in front) runs in examples/frameworks/test/express.test.ts;
// here, a hand-written middleware that reads the stream and sets nothing on the request.
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe("a request body read before Vitrina", () => {
  it("answers 500 body_already_consumed at once, without calling the handler, and reports it", async () => {
    let called = false;
    const reported: unknown[] = [];
    const listener = toNodeListener(
      async () => {
        called = true;
        return new Response("ok");
      },
      { onError: (error) => reported.push(error) },
    );
    server = createServer((req, res) => {
      req.resume();
      req.once("end", () => listener(req, res));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/lead-intake`;

    const response = await fetch(url, {
      method: "POST",
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("body_already_consumed");
    expect(called).toBe(false);
    expect(reported).toEqual([expect.any(BodyAlreadyConsumedError)]);
  });
});
