import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedLookup, pinnedFetch, pinnedSender, type LookupAll } from "@vitrina/http-node";
import { postWebhook } from "@vitrina/core/webhooks";

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
    expect(String((error as Error & { cause?: Error }).cause?.message ?? error)).toMatch(
      /refused to connect: localhost \((127\.0\.0\.1|::1)\)/,
    );
  });

  it("refuses the same connection for webhook deliveries sent with pinnedSender", async () => {
    const attempt = (policy: { allowInsecureLoopback: boolean; allowPrivateNetworks: boolean }) =>
      postWebhook({
        send: pinnedSender(policy),
        url: `http://localhost:${port}/`,
        body: "{}",
        signature: "t=1,v1=00",
        eventId: "evt_1",
        headerPrefix: "Vitrina",
        timeoutMs: 2_000,
      });
    const refused = await attempt({ allowInsecureLoopback: false, allowPrivateNetworks: false });
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toMatch(/^ESSRF: refused to connect: localhost \((127\.0\.0\.1|::1)\)/);
    const allowed = await attempt({ allowInsecureLoopback: true, allowPrivateNetworks: false });
    expect(allowed).toMatchObject({ ok: true, statusCode: 200, responseBodyPrefix: "reached" });
  });

  it("refuses an IP-literal URL at connect time too: no DNS lookup runs for it", async () => {
    // `pinnedFetch` is a guarded fetch for your own code, where no check of core's runs first; its
    // guard sat in the socket's DNS lookup, which Node skips for an address, so an IP literal (or a
    // redirect to one, which this fetch follows) connected anywhere.
    const guarded = pinnedFetch({ allowInsecureLoopback: false, allowPrivateNetworks: false });
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::ffff:7f00:1]:${port}/`]) {
      const error = await guarded(url).then(
        async (response) => `reached: ${response.status} ${await response.text()}`,
        (e: unknown) => e,
      );
      expect(error, url).toBeInstanceOf(Error);
      expect(String((error as Error & { cause?: Error }).cause?.message ?? error)).toMatch(
        /refused to connect: (127\.0\.0\.1|::ffff:7f00:1) is a loopback address/,
      );
    }
    const allowed = pinnedFetch({ allowInsecureLoopback: true, allowPrivateNetworks: false });
    expect(await (await allowed(`http://127.0.0.1:${port}/`)).text()).toBe("reached");
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
    const all = await new Promise<unknown[]>((resolve) =>
      lookup("localhost", { all: true }, (...args) => resolve(args)),
    );
    expect(Array.isArray(all[1])).toBe(true);
    const refused = await new Promise<unknown[]>((resolve) =>
      guardedLookup({ allowInsecureLoopback: false, allowPrivateNetworks: false })("localhost", {}, (...args) =>
        resolve(args),
      ),
    );
    expect((refused[0] as NodeJS.ErrnoException).code).toBe("ESSRF");
  });

  it("refuses names that resolve into special-purpose ranges, and lets ordinary public space through", async () => {
    const production = { allowInsecureLoopback: false, allowPrivateNetworks: false };
    const resolvingTo =
      (address: string): LookupAll =>
      (_name, _options, callback) =>
        callback(null, [{ address, family: address.includes(":") ? 6 : 4 }]);
    const connectTo = (address: string) =>
      new Promise<unknown[]>((resolve) =>
        guardedLookup(production, resolvingTo(address))("hook.example", {}, (...args) => resolve(args)),
      );
    for (const address of [
      "2002:7f00:1::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "64:ff9b:1::a00:1",
      "::7f00:1",
      "::ffff:0:a00:1",
      "192.0.0.8",
      "192.0.2.1",
      "::ffff:169.254.169.254",
    ]) {
      const [error] = await connectTo(address);
      expect((error as NodeJS.ErrnoException | null)?.code, address).toBe("ESSRF");
    }
    for (const address of ["192.0.78.9", "192.0.32.10", "64:ff9b::808:808"]) {
      expect(await connectTo(address), address).toEqual([null, address, address.includes(":") ? 6 : 4]);
    }
  });

  // allowPrivateNetworks (an ERP on your LAN) let deliveries connect to this host's own services;
  // 0.0.0.0 reached a server listening on 127.0.0.1 under any policy that allowed private space.
  it("refuses this host's loopback at connect time when only private networks are allowed", async () => {
    const send = pinnedSender({ allowInsecureLoopback: false, allowPrivateNetworks: true });
    for (const host of ["127.0.0.1", "localhost", "0.0.0.0"]) {
      const result = await postWebhook({
        send,
        url: `http://${host}:${port}/`,
        body: "{}",
        signature: "t=1,v1=00",
        eventId: "evt_1",
        headerPrefix: "Vitrina",
        timeoutMs: 2_000,
      });
      expect(result, host).toMatchObject({ ok: false, statusCode: null, responseBodyPrefix: null });
      expect(result.error, host).toMatch(/^ESSRF: refused to connect: .*loopback address/);
    }
  });
});
