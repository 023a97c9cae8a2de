/** Time is injected so tests can walk retry windows and replay windows without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function createManualClock(start: Date | string | number = "2026-01-01T00:00:00.000Z") {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(time: Date | string | number) {
      current = new Date(time).getTime();
    },
    advance(ms: number) {
      current += ms;
    },
  } satisfies Clock & Record<string, unknown>;
}
export type ManualClock = ReturnType<typeof createManualClock>;
