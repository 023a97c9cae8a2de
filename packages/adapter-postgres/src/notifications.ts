import { isPGlite, isPool, type PostgresDriver } from "./driver.js";

/** The NOTIFY channel of one schema's deliveries: a plain lower-case identifier, so LISTEN needs no quoting. */
export function deliveriesChannel(schema: string): string {
  return `vitrina_deliveries_${schema.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);
}

/**
 * LISTEN on the deliveries channel: PGlite through its own `listen`; a pg Pool on one dedicated
 * client, held for as long as the listener lives (a pooled query would lose the subscription).
 * A dropped connection stops notifications without failing anything: workers still sweep.
 */
export function deliveriesListener(db: PostgresDriver, channel: string) {
  if (isPGlite(db) && db.listen) {
    const listen = db.listen.bind(db);
    return (listener: () => void) => listen(channel, () => listener());
  }
  if (!isPool(db)) return undefined;
  return async (listener: () => void) => {
    const client = await db.connect();
    client.on?.("notification", (message: { channel?: string }) => {
      if (message.channel === channel) listener();
    });
    client.on?.("error", () => {});
    await client.query(`LISTEN ${channel}`);
    return async () => {
      await client.query(`UNLISTEN ${channel}`).then(
        () => client.release(),
        (error: Error) => client.release(error),
      );
    };
  };
}
