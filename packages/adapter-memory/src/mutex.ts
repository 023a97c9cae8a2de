/**
 * A FIFO async mutex: the memory adapter runs one transaction at a time, like SERIALIZABLE. A
 * free lock is taken at once, without waiting on a promise; a finishing holder hands it straight
 * to the longest waiter, so nobody can slip in between.
 */
export class Mutex {
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.locked = true;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // Handing over keeps `locked` true: the next holder runs as soon as its await resumes.
      if (next === undefined) this.locked = false;
      else next();
    }
  }
}
