import { classifyIp, type AddressClass } from "./ip-ranges.js";

/**
 * Resolves a DNS name to every address it has (A and AAAA). `@vitrina/http-node` provides one.
 * `signal` aborts when the caller's deadline passes and nobody waits for the answer any more: a
 * resolver may then reject and drop the lookup if it hasn't started it yet (one already running
 * can't be stopped). Resolvers that ignore it still work.
 */
export type HostResolver = (hostname: string, options?: { signal?: AbortSignal }) => Promise<string[]>;

export interface DestinationPolicy {
  /** Allow `http://` and loopback receivers (127.0.0.0/8, ::1, localhost): demos and tests only. */
  allowInsecureLoopback: boolean;
  /**
   * Allow private, link-local and reserved addresses (an on-premise ERP inside your network); never
   * loopback, which only `allowInsecureLoopback` opens.
   */
  allowPrivateNetworks: boolean;
  /**
   * Without a resolver only IP literals and well-known names are checked; a DNS name that points
   * at a private address gets through. Pass `nodeHostResolver` from `@vitrina/http-node`.
   */
  resolveHost?: HostResolver;
}

const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data"]);

function classifyName(hostname: string): AddressClass | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (METADATA_NAMES.has(name)) return "private";
  return null;
}

function refusal(address: string, kind: AddressClass, policy: DestinationPolicy): string | null {
  if (kind === "public") return null;
  // Loopback is this host's own services (an admin port, a database's HTTP interface): only the
  // demo switch opens it. allowPrivateNetworks is for other machines (an ERP on your LAN).
  const allowed = kind === "loopback" ? policy.allowInsecureLoopback : policy.allowPrivateNetworks;
  return allowed ? null : `${address} is a ${kind} address; webhooks may only reach public addresses`;
}

/**
 * Why a resolved address may not be connected to under `policy`, or null when it may. For
 * connect-time checks (e.g. a DNS lookup hook), so a name can't resolve to a public address when
 * checked and a private one when connected (DNS rebinding). Unparseable addresses count as private.
 */
export function addressRefusal(
  address: string,
  policy: Pick<DestinationPolicy, "allowInsecureLoopback" | "allowPrivateNetworks">,
): string | null {
  return refusal(address, classifyIp(address) ?? "private", { ...policy, resolveHost: undefined });
}

/** The URL's host as an address or name: an IPv6 literal without its brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** The URL's shape: https, or http to a loopback host when allowed; no credentials in it, no port 0. */
export function checkUrlShape(url: URL, policy: DestinationPolicy): string | null {
  if (url.username !== "" || url.password !== "") return "must not contain credentials";
  // Refused here, at subscribe, so the mistake is named once instead of failing every attempt.
  if (url.port === "0") return "must not use port 0 (no server can listen there)";
  if (url.protocol === "https:") return null;
  const host = hostOf(url);
  const loopback = (classifyIp(host) ?? classifyName(host)) === "loopback";
  if (url.protocol === "http:" && loopback && policy.allowInsecureLoopback) return null;
  return url.protocol === "http:" ? "must use https" : `must use https, not ${url.protocol.replace(":", "")}`;
}

/** What `verdictWithoutLookup` answers for a host only DNS can judge. */
export const NEEDS_LOOKUP = Symbol("needs a DNS lookup");

/**
 * The part of `checkDestination` that needs no DNS: the URL's shape, then an IP literal or a
 * well-known name (`localhost`, cloud metadata), or any host when the policy has no resolver.
 * Returns the refusal, null when allowed, or `NEEDS_LOOKUP` for a DNS name the resolver must judge.
 * It depends on the URL and the policy alone, so a caller may keep it per URL.
 */
export function verdictWithoutLookup(url: URL, policy: DestinationPolicy): string | null | typeof NEEDS_LOOKUP {
  const shape = checkUrlShape(url, policy);
  if (shape !== null) return `url ${shape}`;
  const host = hostOf(url);
  const literal = classifyIp(host) ?? classifyName(host);
  if (literal !== null) return refusal(host, literal, policy);
  return policy.resolveHost === undefined ? null : NEEDS_LOOKUP;
}

/**
 * Refuses destinations inside the server's network, judged on every address the name resolves
 * to (one private address is enough to refuse: DNS could hand that one to the connection).
 * Returns the reason for refusing, or null when the destination is allowed. `signal` goes to
 * `policy.resolveHost`: abort it when the answer is no longer wanted (a deadline passed).
 */
export async function checkDestination(
  url: URL,
  policy: DestinationPolicy,
  options: { signal?: AbortSignal } = {},
): Promise<string | null> {
  const verdict = verdictWithoutLookup(url, policy);
  if (verdict !== NEEDS_LOOKUP) return verdict;
  const host = hostOf(url);
  let addresses: string[];
  try {
    // NEEDS_LOOKUP comes only with a resolver.
    addresses = await policy.resolveHost!(host, { signal: options.signal });
  } catch (error) {
    return `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (addresses.length === 0) return `${host} has no addresses`;
  for (const address of addresses) {
    const reason = refusal(`${host} (${address})`, classifyIp(address) ?? "private", policy);
    if (reason !== null) return reason;
  }
  return null;
}
