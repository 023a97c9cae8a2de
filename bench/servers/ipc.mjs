// The server side of the bench's process protocol. A server forked with an IPC channel announces
// { ready: info } once listening; then "cpu-mark" starts a CPU-time window and "cpu-read" answers
// { cpu: microseconds } spent by this process since the mark (user + system, every thread), so the
// bench can divide it by the requests the generator completed in that window. "analyze" runs
// `hooks.analyze` (the PostgreSQL servers ANALYZE their schema: see analyzeSchema in ../lib.mjs)
// and answers "analyzed"; "writes" answers { writes: hooks.writes() } (the PostgreSQL servers count
// the rows their leads wrote: see countLeadWrites in ../lib.mjs), or { writes: null }. `hooks.cpu`
// replaces this process's CPU time in the window (see below).
export function announce(info, hooks = {}) {
  // `hooks.cpu()`: the CPU microseconds to count instead of this process's own (a drainer whose
  // worker runs in a child process counts the child's).
  const cpuNow =
    hooks.cpu ??
    (() => {
      const { user, system } = process.cpuUsage();
      return user + system;
    });
  let mark = cpuNow();
  process.on("message", (message) => {
    if (message === "cpu-mark") {
      mark = cpuNow();
      process.send("cpu-marked");
    } else if (message === "cpu-read") {
      process.send({ cpu: cpuNow() - mark });
    } else if (message === "writes") {
      Promise.resolve(hooks.writes?.() ?? null).then((writes) => process.send({ writes }));
    } else if (message === "analyze") {
      Promise.resolve(hooks.analyze?.()).then(() => process.send("analyzed"));
    }
  });
  process.send({ ready: info });
}
