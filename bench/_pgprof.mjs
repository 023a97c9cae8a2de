import pg from "pg";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import { createVitrina, logMessagingTransport, silentLogger } from "@vitrina/core";
import { signedLead } from "./statements.mjs";
const pool = new pg.Pool({ connectionString: process.env.PGURL ?? "postgres://postgres@127.0.0.1:5432/test", max: 16 });
const schema = `prof_${Date.now()}`;
await migrate(pool, { schema });
const vitrina = createVitrina({
  storage: postgresStorage(pool, { schema, closeDriver: false }),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 9).toString("base64"),
  logger: silentLogger,
});
const ws = await vitrina.workspaces.create({ name: "B", ownerUserId: "owner" });
const { connector, secret } = await vitrina.connectors.create({ userId: "owner" }, ws.id, { name: "B", systemId: "b" });
const target = { url: "http://127.0.0.1/functions/v1/lead-intake", connectorId: connector.id, secret };
let k = 0;
for (const n of [500, 1000]) {
  const t = performance.now();
  const c0 = process.cpuUsage();
  let i = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (i < n) {
        i++;
        const r = await vitrina.handler(signedLead(target, k++));
        await r.text();
      }
    }),
  );
  const c = process.cpuUsage(c0);
  console.log(
    `${n} leads: ${((c.user + c.system) / n).toFixed(0)} µs CPU/lead, ${((n / (performance.now() - t)) * 1000).toFixed(0)} leads/s`,
  );
}
await vitrina.close();
await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
await pool.end();
