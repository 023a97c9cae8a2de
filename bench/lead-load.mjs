// Drives signed, distinct leads at a lead-intake server in a child process and measures it.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Agent } from "undici";
import { load } from "./lib.mjs";

/** Starts `bench/servers/<script>` with `args`; resolves with the JSON line it prints and a stop(). */
export async function startServerProcess(script, args = [], env = {}) {
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), fileURLToPath(new URL(`./servers/${script}`, import.meta.url)), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const [line] = await once(createInterface({ input: child.stdout }), "line");
  return { info: JSON.parse(line), stop: () => child.kill("SIGTERM") };
}

function leadBody(run, i) {
  return JSON.stringify({
    event: "lead.created",
    source_lead_id: `bench-${run}-${i}`,
    contact: { phone_e164: `+569${String(10_000_000 + i).slice(-8)}`, name: "Bench Lead", email: `lead${i}@example.cl` },
    context: { source: "bench", campaign_id: "load" },
    qualification: { monthly_income: 1_500_000 },
    whatsapp_consent: { granted: true, timestamp: "2026-01-01T00:00:00Z", source: "bench", purpose: "sales" },
    metadata: { pad: "x".repeat(600) },
  });
}

/** Sends `total` distinct signed leads over `concurrency` keep-alive connections. */
export async function driveLeads(info, { total = 3000, concurrency = 32 } = {}) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  const run = Date.now();
  try {
    return await load(
      async (i) => {
        const body = leadBody(run, i);
        const timestamp = String(Date.now());
        const response = await fetch(info.url, {
          method: "POST",
          dispatcher,
          headers: {
            "content-type": "application/json",
            "x-vitrina-connector-id": info.connectorId,
            "x-vitrina-timestamp": timestamp,
            "x-vitrina-signature": createHmac("sha256", info.secret).update(`${timestamp}.${body}`).digest("hex"),
          },
          body,
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`lead ${i} answered ${response.status}`);
      },
      { total, concurrency },
    );
  } finally {
    await dispatcher.close();
  }
}
