// One outbox contender in its own process, living through every drain it is asked for, as the
// lead-intake servers do: its heap and JIT are its own, not shared with the bench's other sections
// or with the other contenders, and its CPU per delivery is read off this process alone (ipc.mjs's
// cpu-mark / cpu-read). argv[2]: "vitrina-memory", "vitrina-postgres" (DATABASE_URL),
// "vitrina-cli-worker" (the same backlog drained by a `vitrina worker` process, the same one for
// every drain; its CPU is counted),
// "graphile-fetch" or "graphile-undici-request" (graphile-reference.mjs, POSTing with fetch or with
// undici's request API). Protocol, on top of ipc.mjs's:
//   { queue: { total, url, pool } } → "queued": a fresh backlog of `total` deliveries to `url`, no
//     worker draining yet (`pool`: Vitrina's concurrency options; graphile-worker runs 32 at once);
//   "go" → "started" once the worker (or runner) is draining, or { failed: message }; the receiver
//     process tells the bench when the drain is done;
//   "finish" → "finished": the worker stopped and the drain's schema dropped (the `vitrina worker`
//     and its schema stay until this process ends).
import { prepareGraphileDrain } from "../graphile-reference.mjs";
import {
  SECRET_KEY,
  freshPostgresStorage,
  memoryStorageForBench,
  queueBacklog,
  vitrinaWithSubscription,
} from "../outbox-setup.mjs";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DATABASE_URL, processCpuMicros } from "../lib.mjs";
import { announce } from "./ipc.mjs";

const kind = process.argv[2];

/** A queued Vitrina backlog: `start()` sets one worker going, `finish()` stops it and drops the storage. */
async function queueVitrina({ total, url, pool }) {
  const storage = kind === "vitrina-postgres" ? await freshPostgresStorage() : await memoryStorageForBench();
  const { vitrina, emit } = await vitrinaWithSubscription(storage, pool, url);
  await queueBacklog(storage, total, emit);
  // Statistics for the queued backlog (PostgreSQL only; see analyzeSchema in ../lib.mjs).
  await storage.analyze?.();
  let worker;
  return {
    start() {
      worker = vitrina.outbox.startWorker();
    },
    async finish() {
      await worker.stop();
      await vitrina.close();
    },
  };
}

const VITRINA_BIN = fileURLToPath(new URL("../../packages/http-node/bin/vitrina.js", import.meta.url));

/**
 * The `vitrina worker` process, its schema and the Vitrina that queues its backlogs: started on the
 * first backlog and kept for every drain after it, as a deployed worker lives through many backlogs.
 * A fresh process per drain timed V8 compiling the worker's code as it ran: its first 4,000
 * deliveries cost about 250 µs of CPU more each than the same process's later ones (the other
 * contenders, each in a process of its own, are warmed by the untimed first round; so is this one).
 */
let cli = null;

/** The worker's CPU time so far (this process only queues and waits). */
const cliCpu = () => (cli === null ? 0 : processCpuMicros(cli.child.pid));

/**
 * Starts `vitrina worker` as the http-node README starts it: the bin, the database, schema and
 * secret key from the environment, its default concurrency, no config file (run from an empty
 * directory). Loopback receivers are allowed the documented way, `VITRINA_ALLOW_INSECURE_LOOPBACK=true`.
 * Resolves once it says, on stderr, where it delivers from; the rest of its output is not needed.
 */
async function startCliWorker(url) {
  const storage = await freshPostgresStorage();
  const { vitrina, emit } = await vitrinaWithSubscription(storage, {}, url);
  const cwd = await mkdtemp(join(tmpdir(), "vitrina-bench-cli-worker-"));
  // This process's Node flags too (BENCH_SERVER_NODE_ARGS: a profiler's), so the worker can be profiled.
  const child = spawn(process.execPath, [...process.execArgv, VITRINA_BIN, "worker"], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL,
      VITRINA_DB_SCHEMA: storage.schema,
      VITRINA_SECRET_KEY: SECRET_KEY,
      VITRINA_ALLOW_INSECURE_LOOPBACK: "true",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  child.stderr.setEncoding("utf8");
  await new Promise((resolve, reject) => {
    const read = (text) => {
      said = (said + text).slice(-10_000);
      if (said.includes("delivering from")) {
        child.stderr.off("data", read);
        child.stderr.resume();
        resolve();
      }
    };
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`vitrina worker exited with ${code}: ${said}`)));
  });
  return { storage, vitrina, emit, url, cwd, child };
}

/** Until the worker's CPU time stops moving (it is done with what woke it), at most 3 s. */
async function untilIdle() {
  for (let before = -1, tries = 0; tries < 30 && cliCpu() !== before; tries++) {
    before = cliCpu();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The same backlog on PostgreSQL, drained by the `vitrina worker` process. The worker is paused
 * (SIGSTOP) while the backlog is queued and analyzed, its rows due at once; "go" resumes it, and it
 * finds them as a worker does after commits: the announcements of the commits that queued them
 * wait on its listening connection. So the drain times the worker alone, not its process start-up
 * nor the queueing. (The rows used to be queued due an hour later and made due on "go" by one
 * UPDATE of the whole backlog, inside the timed window: a cost no other contender paid, about a
 * third more WAL per delivery, and an index the claims found full of the backlog's dead versions.)
 */
async function queueCliWorker({ total, url }) {
  cli ??= await startCliWorker(url);
  if (cli.url !== url) throw new Error("the vitrina worker drains to one receiver only");
  const { storage, emit, child } = cli;
  // Paused idle, so it holds no transaction (its start-up's retention run, the last drain's outcomes).
  await untilIdle();
  child.kill("SIGSTOP");
  try {
    // What the earlier rounds left, cleared as autovacuum would (vacuumSchema in ../lib.mjs says why).
    await storage.vacuum();
    await queueBacklog(storage, total, emit);
    await storage.analyze();
  } catch (error) {
    child.kill("SIGCONT");
    throw error;
  }
  return {
    start() {
      child.kill("SIGCONT");
    },
    // The worker and its schema stay for the next drain (stopCliWorker ends them with this process).
    async finish() {},
  };
}

/** Stops the worker (it finishes what it has in flight) and drops its schema. */
async function stopCliWorker() {
  if (cli === null) return;
  const { child, vitrina, cwd } = cli;
  cli = null;
  child.kill("SIGTERM");
  child.kill("SIGCONT"); // a worker paused for a backlog never drained must run to see the SIGTERM
  if (child.exitCode === null) await once(child, "exit");
  await vitrina.close();
  await rm(cwd, { recursive: true, force: true });
}

function queue(job) {
  if (kind === "vitrina-cli-worker") return queueCliWorker(job);
  if (kind === "vitrina-memory" || kind === "vitrina-postgres") return queueVitrina(job);
  if (kind === "graphile-fetch") return prepareGraphileDrain({ ...job, client: "fetch" });
  if (kind === "graphile-undici-request") return prepareGraphileDrain({ ...job, client: "undici-request" });
  throw new Error(`unknown drainer kind ${kind}`);
}

let drain = null;
process.on("message", async (message) => {
  if (message?.queue !== undefined) {
    drain = await queue(message.queue);
    process.send("queued");
  } else if (message === "go") {
    try {
      await drain.start();
      process.send("started");
    } catch (error) {
      process.send({ failed: String(error?.stack ?? error) });
    }
  } else if (message === "finish") {
    await drain.finish();
    drain = null;
    process.send("finished");
  }
});
announce({ kind }, kind === "vitrina-cli-worker" ? { cpu: cliCpu } : {});
// Exit on SIGTERM through process.exit, so `--cpu-prof` (BENCH_SERVER_NODE_ARGS) writes its profile;
// a `vitrina worker` still running is stopped first, and its schema dropped.
process.once("SIGTERM", () => void stopCliWorker().finally(() => process.exit(0)));
// Whatever ends this process, the worker must not outlive it.
process.once("exit", () => cli?.child.kill("SIGKILL"));
