/** What `withinDeadline` answers when the deadline came first. */
export const TIMED_OUT = Symbol("timed out");

/**
 * `work`'s result, or `TIMED_OUT` once `ms` have passed first. `work` is not cancelled (a query or
 * a DNS lookup has no way to be): it settles unobserved, and its rejection, if any, is not
 * reported. A rejection before the deadline rejects as `work` did.
 *
 * @example if ((await withinDeadline(storage.ping(), 1000)) === TIMED_OUT) report("no answer");
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  // Promise.race observes `work` too, so its rejection after the deadline is not an unhandled one.
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
