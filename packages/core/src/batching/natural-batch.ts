interface Pending<I, R> {
  item: I;
  waiters: Array<{ resolve(result: R | undefined): void; reject(error: unknown): void }>;
}

/**
 * Natural batching (decision 0008): an item that arrives while no write is in flight is written at once,
 * alone; items that arrive while one is in flight wait for it and then go together (up to `maxBatch`) in
 * one write. An idle server adds no delay; a busy one pays one round trip, one plan and one commit for many
 * items instead of one each. One write is in flight at a time, per instance.
 *
 * The same key twice in one batch is written once and both callers get its result. A write answers a
 * result per key it matched; a key without one resolves with undefined (the caller's error path). A failed
 * write fails every item of its batch.
 */
export class NaturalBatch<I, R> {
  private pending = new Map<string, Pending<I, R>>();
  private writing = false;

  constructor(
    private readonly write: (items: I[]) => Promise<Map<string, R>>,
    private readonly keyOf: (item: I) => string,
    private readonly maxBatch = 500,
    /** Told each batch's size before it is written (the batch-size metric). */
    private readonly onBatch: (size: number) => void = () => {},
  ) {}

  submit(item: I): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      const key = this.keyOf(item);
      let entry = this.pending.get(key);
      if (!entry) this.pending.set(key, (entry = { item, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending].slice(0, this.maxBatch);
        for (const [key] of batch) this.pending.delete(key);
        await this.settle(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async settle(batch: Array<[string, Pending<I, R>]>) {
    let results: Map<string, R>;
    this.onBatch(batch.length);
    try {
      results = await this.write(batch.map(([, entry]) => entry.item));
    } catch (error) {
      for (const [, entry] of batch) for (const waiter of entry.waiters) waiter.reject(error);
      return;
    }
    for (const [key, entry] of batch) {
      const result = results.get(key);
      for (const waiter of entry.waiters) waiter.resolve(result);
    }
  }
}
