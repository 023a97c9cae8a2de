import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { type DestinationPolicy } from "@vitrina/core";
import { addressRefusal, type HostResolver } from "@vitrina/core/webhooks";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { nodeHostResolver } from "./host-resolver.js";

type Policy = Pick<DestinationPolicy, "allowInsecureLoopback" | "allowPrivateNetworks">;
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** The `dns.lookup` form this guard calls: every address, in the resolver's order. */
export type LookupAll = (
  hostname: string,
  options: { all: true; verbatim: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * `dns.lookup`'s callback form over a `HostResolver`; `family` (4 or 6) keeps that family's
 * addresses, and none of it is ENOTFOUND, as getaddrinfo says it.
 */
export function lookupThrough(resolver: HostResolver): LookupAll {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (found) => {
        const addresses = found
          .map((address) => ({ address, family: isIP(address) }))
          .filter(({ family }) => !options.family || family === options.family);
        if (addresses.length > 0) return callback(null, addresses);
        const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
        callback(error, []);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * The lookup a socket makes when it connects goes through `nodeHostResolver`, so it shares the
 * process's cap on getaddrinfo calls in flight (and any lookup of the same name already running)
 * with the SSRF guard's check: a receiver whose nameserver hangs can't fill libuv's threadpool
 * through connections either.
 */
const boundedLookup = lookupThrough(nodeHostResolver);

/**
 * A DNS lookup for sockets that refuses disallowed addresses at connect time. Core's SSRF guard
 * checks a name before delivering, but the socket resolves it again: a name that answers with a
 * public address first and a private one next (DNS rebinding) is stopped here. `lookup` replaces
 * `dns.lookup` (tests, or a custom resolver); every address it returns is checked. The default is
 * getaddrinfo through `nodeHostResolver`'s bounded queue (see `boundedLookup`).
 */
export function guardedLookup(policy: Policy, lookup: LookupAll = boundedLookup) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal !== null) {
          return callback(
            Object.assign(new Error(`refused to connect: ${hostname} (${address}) ${refusal.replace(/^\S+ /, "")}`), {
              code: "ESSRF",
            }),
            [],
          );
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici agent whose every connection is judged before it is made: a name by `guardedLookup`
 * on each address it resolves to, and an address (an IP-literal URL, or a redirect to one) here,
 * since Node runs no lookup for an address and the lookup's guard alone let it connect anywhere.
 */
export function guardedAgent(policy: Policy): Agent {
  const connector = buildConnector({ lookup: guardedLookup(policy) as never });
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, "");
      const refusal = isIP(host) === 0 ? null : addressRefusal(host, policy);
      if (refusal === null) return connector(options, callback);
      const error = new Error(`refused to connect: ${refusal}`);
      callback(Object.assign(error, { code: "ESSRF" }), null);
    },
  });
}

/**
 * A `fetch` whose connections only reach addresses the webhook policy allows, checked on the
 * addresses the socket actually connects to, for code that wants a guarded `fetch`: IP-literal URLs
 * and every redirect hop included. Deliveries use `pinnedSender` (through `nodeWebhookOptions()`),
 * the same guard on a cheaper client.
 */
export function pinnedFetch(policy: Policy): typeof fetch {
  const dispatcher = guardedAgent(policy);
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}
