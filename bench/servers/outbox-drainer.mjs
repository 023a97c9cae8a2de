// One outbox contender in its own process, living through every drain it is asked for, as the
// lead-intake servers do: its heap and JIT are its own, not shared with the bench's other sections
// or with the other contenders, and its CPU per delivery is read off this process alone (ipc.mjs's
// cpu-mark / cpu-read). argv[2]: "vitrina-memory", "vitrina-postgres" (DATABASE_URL),
// "graphile-fetch" or "graphile-undici-request" (graphile-reference.mjs, POSTing with fetch or with
// undici's request API). Protocol, on top of ipc.mjs's:
//   { queue: { total, url, pool } } → "queued": a fresh backlog of `total` deliveries to `url`, no
//     worker running yet (`pool`: Vitrina's concurrency options; graphile-worker runs 32 at once);
//   "go" → "started" once the worker (or runner) is draining, or { failed: message }; the receiver
//     process tells the bench when the drain is done;
//   "finish" → "finished": the worker stopped and the drain's schema dropped.
import { prepareGraphileDrain } from "../graphile-reference.mjs";
import {
  freshPostgresStorage,
  memoryStorageForBench,
  queueBacklog,
  vitrinaWithSubscription,
} from "../outbox-setup.mjs";
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

function queue(job) {
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
announce({ kind });
// Exit on SIGTERM through process.exit, so `--cpu-prof` (BENCH_SERVER_NODE_ARGS) writes its profile.
process.once("SIGTERM", () => process.exit(0));
