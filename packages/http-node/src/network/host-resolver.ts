import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import type { HostResolver } from "@vitrina/core/webhooks";

/** The `dns.promises.lookup` form the resolver calls: getaddrinfo, every address, in its order. */
export type LookupAllPromise = (hostname: string, options: { all: true; verbatim: true }) => Promise<LookupAddress[]>;

export interface NodeHostResolverOptions {
  /** Replaces `dns.promises.lookup` (tests, or your own getaddrinfo wrapper). */
  lookup?: LookupAllPromise;
  /** How many lookups may run at once in this resolver; more wait in line. Default 2. */
  maxInFlight?: number;
}

/**
 * getaddrinfo runs on libuv's threadpool (4 threads unless UV_THREADPOOL_SIZE says otherwise),
 * shared with fs, zlib and crypto's pbkdf2/scrypt, and a lookup whose nameserver never answers
 * holds its thread until the OS resolver gives up (timeout × attempts in resolv.conf, often 10 to
 * 30 s), long after our caller's deadline abandoned it. Two leaves the default pool half free
 * whatever a subscriber's DNS does; a healthy lookup takes milliseconds, so two at a time keep up
 * with the outbox's deliveries, the more so as each name is looked up once however many ask.
 */
const DEFAULT_MAX_IN_FLIGHT = 2;

interface Lookup {
  hostname: string;
  /** Callers still waiting; a queued lookup nobody waits for any more is dropped unstarted. */
  waiters: number;
  started: boolean;
  result: Promise<string[]>;
  start: () => void;
}

/**
 * A `HostResolver` on getaddrinfo (so /etc/hosts and nsswitch apply) that can't take over the
 * threadpool: callers asking for a name already being looked up share that lookup (its answer is
 * not kept once it settles: the SSRF guard must judge what the name resolves to now), and at most
 * `maxInFlight` lookups run at once. A caller whose `signal` aborts stops waiting at once; a lookup
 * still in line when its last caller leaves never starts.
 */
export function createNodeHostResolver(options: NodeHostResolverOptions = {}): HostResolver {
  const lookup: LookupAllPromise = options.lookup ?? dnsLookup;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) {
    throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`);
  }
  /** Every lookup queued or running, by name. */
  const lookups = new Map<string, Lookup>();
  const queue: Lookup[] = [];
  let running = 0;

  const startNext = () => {
    while (running < maxInFlight && queue.length > 0) queue.shift()!.start();
  };

  const enqueue = (hostname: string): Lookup => {
    let settle!: { resolve: (addresses: string[]) => void; reject: (error: unknown) => void };
    const result = new Promise<string[]>((resolve, reject) => (settle = { resolve, reject }));
    const entry: Lookup = {
      hostname,
      waiters: 0,
      started: false,
      result,
      start: () => {
        entry.started = true;
        running++;
        Promise.resolve()
          .then(() => lookup(hostname, { all: true, verbatim: true }))
          .then((found) => found.map((r) => r.address))
          .then(settle.resolve, settle.reject)
          .finally(() => {
            running--;
            if (lookups.get(hostname) === entry) lookups.delete(hostname);
            startNext();
          });
      },
    };
    lookups.set(hostname, entry);
    queue.push(entry);
    startNext();
    return entry;
  };

  const leave = (entry: Lookup) => {
    if (--entry.waiters > 0 || entry.started) return;
    const at = queue.indexOf(entry);
    if (at !== -1) queue.splice(at, 1);
    if (lookups.get(entry.hostname) === entry) lookups.delete(entry.hostname);
  };

  return (hostname, { signal } = {}) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const entry = lookups.get(hostname) ?? enqueue(hostname);
    entry.waiters++;
    if (signal === undefined) return entry.result;
    return new Promise<string[]>((resolve, reject) => {
      const abandon = () => {
        leave(entry);
        reject(signal.reason);
      };
      signal.addEventListener("abort", abandon, { once: true });
      entry.result.then(resolve, reject).finally(() => signal.removeEventListener("abort", abandon));
    });
  };
}

/**
 * Every address a name resolves to (A and AAAA), for core's SSRF guard:
 * `createVitrina({ webhooks: { resolveHost: nodeHostResolver } })`. One instance for the process,
 * so its limit on lookups in flight holds across every Vitrina in it.
 */
export const nodeHostResolver: HostResolver = createNodeHostResolver();
