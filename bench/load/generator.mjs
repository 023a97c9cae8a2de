// The load generator, run in its own process (forked by drive.mjs) so that it shares neither an
// event loop nor a CPU budget accounting with the server. It receives one job over IPC, runs it
// and answers { requests, errors, perSecond, p50, p99, clientCpuUsPerRequest }.
// engine "undici": `Pool#request` over `connections` keep-alive sockets, pipelining 1, closed loop
// (one request in flight per connection). engine "autocannon": the same load through autocannon,
// as a second opinion on the same server.
import { Pool } from "undici";
import { percentile } from "../lib.mjs";
import { BODY_CHECK_EVERY, bodyChecks, profiles } from "./requests.mjs";

/**
 * The undici connections, opened by the warm-up and kept for the measured window: a window that
 * opened its own 32 connections measured their set-up too, in its first few hundred milliseconds
 * (their requests' latencies ran at up to twice the window's p50, and moved its p99 by up to 6 ms).
 */
function undiciPool({ target, connections }) {
  return new Pool(new URL(target.url).origin, { connections, pipelining: 1 });
}

async function runUndici({ pool, next, connections, durationMs, checkBody }) {
  const latencies = [];
  let sent = 0;
  let errors = 0;
  let firstError;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const request = next();
        const checked = checkBody !== undefined && ++sent % BODY_CHECK_EVERY === 0;
        const t0 = performance.now();
        try {
          const { statusCode, body } = await pool.request(request);
          let problem = null;
          if (checked) problem = checkBody(await body.text());
          else await body.dump();
          if (statusCode !== 200) throw new Error(`answered ${statusCode}`);
          if (problem !== null) throw new Error(problem);
        } catch (error) {
          errors++;
          firstError ??= String(error?.message ?? error);
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return summary(
    latencies.length,
    errors,
    firstError,
    seconds,
    cpu,
    percentile(latencies, 50),
    percentile(latencies, 99),
  );
}

async function runAutocannon({ target, next, connections, durationMs }) {
  const { default: autocannon } = await import("autocannon");
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: new URL(target.url).origin,
    connections,
    pipelining: 1,
    duration: durationMs / 1000,
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const errors = result.errors + result.timeouts + result.non2xx;
  return summary(
    result.requests.total,
    errors,
    errors ? `${result.non2xx} non-2xx, ${result.errors} errors` : undefined,
    seconds,
    cpu,
    result.latency.p50,
    result.latency.p99,
  );
}

function summary(requests, errors, firstError, seconds, cpu, p50, p99) {
  return {
    requests,
    errors,
    firstError,
    perSecond: requests / seconds,
    p50,
    p99,
    clientCpuUsPerRequest: (cpu.user + cpu.system) / requests,
  };
}

// The warm-up runs in this same process, so the measured window starts with a warm JIT; between
// the two the parent marks the server's CPU ("warmed" -> "go").
process.once("message", async (message) => {
  try {
    // One request sequence for the warm-up and the measured window together: a lead profile's
    // numbers (phone, source id) never repeat, so the measured window sends no lead for a person
    // the warm-up already created. A server measured in several rounds gets a different
    // `firstRequest` each round, for the same reason.
    const request = profiles[message.profile](message.target);
    let counter = message.firstRequest ?? 0;
    const job = { ...message, next: () => request(counter++), checkBody: bodyChecks[message.profile] };
    const runner = job.engine === "autocannon" ? runAutocannon : runUndici;
    if (runner === runUndici) job.pool = undiciPool(job);
    if (job.warmupMs > 0) {
      await runner({ ...job, durationMs: job.warmupMs });
      process.send({ warmed: true });
      await new Promise((resolve) => process.once("message", resolve));
    }
    const result = await runner(job);
    await job.pool?.close();
    process.send({ ok: true, result }, () => process.exit(0));
  } catch (error) {
    process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1));
  }
});
