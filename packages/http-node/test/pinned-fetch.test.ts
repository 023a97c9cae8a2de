import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedLookup, pinnedFetch } from "@vitrina/http-node";

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_req, res) => res.end("reached"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("connect-time SSRF guard", () => {
  it("refuses to connect when the name resolves to a loopback address under a production policy", async () => {
    const guarded = pinnedFetch({ allowInsecureLoopback: false, allowPrivateNetworks: false });
    const error = await guarded(`http://localhost:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error & { cause?: Error }).cause?.message ?? error)).toMatch(/refused to connect: localhost \((127\.0\.0\.1|::1)\)/);
  });

  it("connects when the policy allows loopback (demo mode)", async () => {
    const allowed = pinnedFetch({ allowInsecureLoopback: true, allowPrivateNetworks: false });
    // The socket gets every address (autoSelectFamily) and finds 127.0.0.1 even if ::1 comes first.
    const response = await allowed(`http://localhost:${port}/`);
    expect(await response.text()).toBe("reached");
  });

  it("answers both lookup forms a socket may ask for", async () => {
    const lookup = guardedLookup({ allowInsecureLoopback: true, allowPrivateNetworks: false });
    const single = await new Promise<unknown[]>((resolve) => lookup("localhost", {}, (...args) => resolve(args)));
    expect(single[0]).toBeNull();
    expect(typeof single[1]).toBe("string");
    const all = await new Promise<unknown[]>((resolve) => lookup("localhost", { all: true }, (...args) => resolve(args)));
    expect(Array.isArray(all[1])).toBe(true);
    const refused = await new Promise<unknown[]>((resolve) =>
      guardedLookup({ allowInsecureLoopback: false, allowPrivateNetworks: false })("localhost", {}, (...args) => resolve(args)),
    );
    expect((refused[0] as NodeJS.ErrnoException).code).toBe("ESSRF");
  });
});
