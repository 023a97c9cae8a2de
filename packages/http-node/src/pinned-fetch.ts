import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { type DestinationPolicy } from "@vitrina/core";
import { addressRefusal } from "@vitrina/core/webhooks";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";

type Policy = Pick<DestinationPolicy, "allowInsecureLoopback" | "allowPrivateNetworks">;
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** The `dns.lookup` form this guard calls: every address, in the resolver's order. */
export type LookupAll = (
  hostname: string,
  options: { all: true; verbatim: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup for sockets that refuses disallowed addresses at connect time. Core's SSRF guard
 * checks a name before delivering, but the socket resolves it again: a name that answers with a
 * public address first and a private one next (DNS rebinding) is stopped here. `lookup` replaces
 * `dns.lookup` (tests, or a custom resolver); every address it returns is checked.
 */
export function guardedLookup(policy: Policy, lookup: LookupAll = dnsLookup) {
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
