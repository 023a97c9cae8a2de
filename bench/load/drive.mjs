// Parent side: starts a server and the load generator in two separate child processes, runs a
// warm-up and a measured window, and returns the generator's figures plus the server's CPU time
// per request over that window.
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const generatorScript = fileURLToPath(new URL("./generator.mjs", import.meta.url));

async function reply(child, predicate) {
  for (;;) {
    // The listener `once` leaves on the losing side is removed through the signal: a server that
    // lives through many rounds would otherwise collect one per call.
    const settled = new AbortController();
    try {
      const [message] = await Promise.race([
        once(child, "message", { signal: settled.signal }),
        once(child, "exit", { signal: settled.signal }).then(([code]) => {
          throw new Error(`child exited with ${code}`);
        }),
      ]);
      if (predicate(message)) return message;
    } finally {
      settled.abort();
    }
  }
}

/** Forks `bench/servers/<script>` with `args`; resolves once it is listening. */
export async function startServer(script, args = [], env = {}) {
  const child = fork(fileURLToPath(new URL(`../servers/${script}`, import.meta.url)), args, {
    execArgv: process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [],
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const { ready } = await reply(child, (m) => m?.ready);
  return {
    info: ready,
    /**
     * Sends `message` and resolves with the first message back that `isAnswer` accepts. The
     * listener is in place before this returns, so a caller may start what the answer waits for
     * and await the promise afterwards.
     */
    ask(message, isAnswer) {
      const answer = reply(child, isAnswer);
      child.send(message);
      return answer;
    },
    /** The next message from the server that `isAnswer` accepts (listening from this call on). */
    next: (isAnswer) => reply(child, isAnswer),
    /** The PostgreSQL servers ANALYZE their tables (see analyzeSchema in ../lib.mjs); others do nothing. */
    async analyze() {
      child.send("analyze");
      await reply(child, (m) => m === "analyzed");
    },
    /** What the PostgreSQL servers' leads wrote so far (countLeadWrites in ../lib.mjs); null for others. */
    async writes() {
      child.send("writes");
      return (await reply(child, (m) => m !== null && typeof m === "object" && "writes" in m)).writes;
    },
    async markCpu() {
      child.send("cpu-mark");
      await reply(child, (m) => m === "cpu-marked");
    },
    async readCpu() {
      child.send("cpu-read");
      return (await reply(child, (m) => typeof m?.cpu === "number")).cpu;
    },
    async stop() {
      // A server with its own SIGTERM handler (http-node's graceful close) would otherwise stay
      // alive on the open IPC channel; SIGKILL if it hasn't left within 5 s.
      const exited = once(child, "exit");
      child.disconnect();
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** Runs one generator job in a fresh child process; `afterWarmup` runs between warm-up and the measured window. */
export async function generate(job, afterWarmup = async () => {}) {
  const child = fork(generatorScript, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  child.send(job);
  let message = await reply(child, () => true);
  if (message.warmed) {
    await afterWarmup();
    child.send("go");
    message = await reply(child, () => true);
  }
  if (!message.ok) throw new Error(`load generator failed: ${message.error}`);
  return message.result;
}

/**
 * Warm-up, then a measured window: `{ perSecond, p50, p99, clientCpuUsPerRequest,
 * serverCpuUsPerRequest, requests, errors }`. A run with errors throws: its rate would be meaningless.
 * `firstRequest` numbers the round's requests from there (a server measured again must not see the
 * same leads twice).
 */
export async function measureServer(
  server,
  { profile, engine = "undici", connections = 32, warmupMs = 1000, durationMs = 3000, firstRequest = 0 },
) {
  const job = { target: server.info, profile, engine, connections, warmupMs, durationMs, firstRequest };
  // Statistics for what the warm-up wrote, as autovacuum would take them on a server that runs it,
  // before the measured window (its CPU isn't counted).
  const result = await generate(job, async () => {
    await server.analyze();
    await server.markCpu();
  });
  const serverCpu = await server.readCpu();
  if (result.errors > 0)
    throw new Error(`${result.errors} of ${result.requests} requests failed (${result.firstError})`);
  return { ...result, serverCpuUsPerRequest: serverCpu / result.requests };
}

/** Starts the server, measures it, stops it. */
export async function measure(script, args, options, env) {
  const server = await startServer(script, args, env);
  try {
    return await measureServer(server, options);
  } finally {
    await server.stop();
  }
}
