/** What `withinDeadline` answers when the deadline came first. */
export const TIMED_OUT = Symbol("timed out");

/**
 * `work`'s result, or `TIMED_OUT` once `ms` have passed first. `work` is not cancelled (a query or
 * a DNS lookup has no way to be): it settles unobserved, and its rejection, if any, is not
 * reported. A rejection before the deadline rejects as `work` did. Given as a function, `work` gets
 * a signal that aborts at the deadline, for work that can still drop what it hasn't started (a
 * DNS lookup waiting for a free slot).
 *
 * @example if ((await withinDeadline(storage.ping(), 1000)) === TIMED_OUT) report("no answer");
 */
export async function withinDeadline<T>(
  work: Promise<T> | ((signal: AbortSignal) => Promise<T>),
  ms: number,
): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abandon = typeof work === "function" ? new AbortController() : undefined;
  const deadline = new Promise<typeof TIMED_OUT>(
    (resolve) =>
      (timer = setTimeout(() => {
        // Settled before aborting, so the race is won by the deadline, not by what aborting causes.
        resolve(TIMED_OUT);
        abandon?.abort(new Error(`deadline of ${ms} ms passed`));
      }, ms)),
  );
  const working = typeof work === "function" ? work(abandon!.signal) : work;
  // Promise.race observes `working` too, so its rejection after the deadline is not an unhandled one.
  try {
    return await Promise.race([working, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
