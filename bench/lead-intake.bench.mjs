// Signed leads/s and latency through @vitrina/http-node + memory adapter, next to a bare node:http
// server that only reads the body, verifies the HMAC and answers 200 (the ceiling).
import { driveLeads, startServerProcess } from "./lead-load.mjs";

export const name = "lead intake: http-node + memory adapter vs bare node:http ceiling (32 connections, distinct leads)";

async function measure(kind) {
  const server = await startServerProcess("lead-server.mjs", [kind]);
  try {
    await driveLeads(server.info, { total: 500 }); // warm-up
    return await driveLeads(server.info, { total: 4000 });
  } finally {
    server.stop();
  }
}

export async function run() {
  const bare = await measure("bare");
  const vitrina = await measure("vitrina-memory");
  const row = (label, r) => [
    { case: `${label} leads/s`, value: r.perSecond, unit: "req/s" },
    { case: `${label} p50 / p99`, value: `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)}`, unit: "ms" },
  ];
  return [
    ...row("bare node:http (ceiling)", bare),
    ...row("vitrina http-node + memory", vitrina),
    { case: "vitrina / ceiling", value: `${((vitrina.perSecond / bare.perSecond) * 100).toFixed(1)}%`, note: "target >= 50%" },
  ];
}
