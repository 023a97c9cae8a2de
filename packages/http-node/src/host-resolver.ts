import { lookup } from "node:dns/promises";
import type { HostResolver } from "@vitrina/core/webhooks";

/**
 * Every address a name resolves to (A and AAAA), for core's SSRF guard:
 * `createVitrina({ webhooks: { resolveHost: nodeHostResolver } })`.
 */
export const nodeHostResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => r.address);
};
