// Starts a bench server in a child process that prints its info as one JSON line (mcp-server.mjs).
// Lead intake uses bench/load/ instead: a forked server and a separate load-generator process.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** Starts `bench/servers/<script>` with `args`; resolves with the JSON line it prints and a stop(). */
export async function startServerProcess(script, args = [], env = {}) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      fileURLToPath(new URL(`./servers/${script}`, import.meta.url)),
      ...args,
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
    },
  );
  const [line] = await once(createInterface({ input: child.stdout }), "line");
  return { info: JSON.parse(line), stop: () => child.kill("SIGTERM") };
}
