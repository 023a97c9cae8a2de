/**
 * Resolves once the event loop has run what is ready now (Node's, Bun's and Deno's
 * `setImmediate`, else a zero timeout): the outbox's way to let work that is already under way
 * reach the same claim or the same write, without a timer to tune.
 *
 * Why it is needed: the outbox groups deliveries into one claim and outcomes into one write with
 * whatever arrived while the previous statement was in flight. On PGlite nothing arrives then: a
 * statement runs synchronously on the process's own thread, so the loop went one claim and one
 * write per lead under load (measured: 1.23 claims and 1.0 writes per lead at 32 connections). One
 * turn later, the leads that committed in the same turn are claimed together. An idle outbox waits
 * one turn, microseconds; on a PostgreSQL server the grouping it already had is unchanged.
 */
export function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}
