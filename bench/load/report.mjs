// Formatting shared by the benches that use the load generator: one row per measured server,
// with its rate, latency, client and server CPU per request and its ratio to a reference.
import { measure } from "./drive.mjs";

const us = (n) => `${n.toFixed(0)} µs`;

/**
 * A PostgreSQL round: PostgreSQL's own CPU and WAL per request, or per `unit` (see postgresMeter in
 * ../lib.mjs, whose figures `r` carries); empty for a round without them.
 */
export function postgresFigures(r, unit = "req") {
  if (r.walBytesPerRequest === undefined) return "";
  const cpu = r.postgresCpuUsPerRequest === null ? "" : `, PostgreSQL ${us(r.postgresCpuUsPerRequest)}`;
  return `${cpu}, WAL ${(r.walBytesPerRequest / 1024).toFixed(1)} KiB/${unit}`;
}

/** A row for run.mjs: req/s as the value, the rest as the note. `reference` is { label, perSecond } or absent. */
export function loadRow(label, r, reference) {
  // Share of one core the generator used: well under 100 % means it was waiting on the server.
  const clientBusy = `${((r.clientCpuUsPerRequest * r.perSecond) / 1e4).toFixed(0)} % of a core`;
  // Two ratios to the reference: req/s (what the targets use), and server CPU per request
  // (reference ÷ row), which holds even when the reference's rate is capped by the generator.
  const cpuRatio = reference?.serverCpuUsPerRequest
    ? `, server CPU ${(reference.serverCpuUsPerRequest / r.serverCpuUsPerRequest).toFixed(2)}×`
    : "";
  const ratio = reference ? `, ${(r.perSecond / reference.perSecond).toFixed(2)}× ${reference.label}${cpuRatio}` : "";
  return {
    case: label,
    value: r.perSecond,
    unit: "req/s",
    note: `p50 ${r.p50.toFixed(2)} / p99 ${r.p99.toFixed(2)} ms, CPU/req client ${us(r.clientCpuUsPerRequest)} (${clientBusy}) server ${us(r.serverCpuUsPerRequest)}${postgresFigures(r)}${ratio}`,
  };
}

/**
 * The generator's own ceiling: undici `Pool#request` against a node:http server answering a fixed
 * 200, the cheapest server there is, and with `secondOpinion`, autocannon against the same server
 * (one section's second opinion is enough: it judges the generator, not the section). Returns the
 * rows and the undici rate.
 */
export async function generatorCeiling({ connections, durationMs, secondOpinion = true }) {
  const options = { profile: "fixed", connections, durationMs };
  const undici = await measure("lead-server.mjs", ["fixed"], { ...options, engine: "undici" });
  const rows = [loadRow("generator ceiling: undici Pool#request -> fixed 200", undici)];
  if (secondOpinion) {
    const autocannon = await measure("lead-server.mjs", ["fixed"], { ...options, engine: "autocannon" });
    rows.push(
      loadRow("  second opinion: autocannon -> fixed 200", autocannon, {
        label: "undici",
        perSecond: undici.perSecond,
      }),
    );
  }
  return { perSecond: undici.perSecond, rows };
}

/** The sentence that says whether the generator, not the server, could have limited a rate. */
export function bottleneckVerdict(ceiling, label, perSecond) {
  const times = ceiling / perSecond;
  const verdict =
    times >= 2 ? `so the ${label} rows measure ${label}` : `TOO CLOSE: the ${label} rows may measure the generator`;
  return {
    case: "verdict",
    value: `${times.toFixed(1)}×`,
    note: `the generator's ceiling on a bare server is ${Math.round(ceiling).toLocaleString("en-US")} req/s, ${times.toFixed(1)}× the rate measured for ${label} below; ${verdict}`,
  };
}

/** The median round by rate, whole (its latency and CPU figures come from the same round). */
export const medianRound = (results) =>
  [...results].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(results.length / 2)];

/**
 * Each round's rate over the reference round run just before it, and their median: the two ran
 * seconds apart, so a change in the machine's speed between rounds (up to 1.8× within an hour on
 * the 2-core VM) moves both, where a ratio of two medians may take each from different rounds.
 * `ours` and `theirs` are the rounds in the order they ran.
 */
export function roundByRound(ours, theirs) {
  const ratios = ours.map((round, i) => round.perSecond / theirs[i].perSecond);
  const middle = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  return `round by round ${ratios.map((x) => x.toFixed(2)).join(" / ")}, median ${middle.toFixed(2)}×`;
}
