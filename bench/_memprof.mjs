import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, logMessagingTransport, silentLogger } from "@vitrina/core";
import { signedLead } from "./statements.mjs";
const vitrina = createVitrina({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 9).toString("base64"),
  logger: silentLogger,
});
const ws = await vitrina.workspaces.create({ name: "B", ownerUserId: "owner" });
const { connector, secret } = await vitrina.connectors.create({ userId: "owner" }, ws.id, { name: "B", systemId: "b" });
const target = { url: "http://127.0.0.1/functions/v1/lead-intake", connectorId: connector.id, secret };
for (const n of [2000, 2000, 2000]) {
  const t = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const r = await vitrina.handler(signedLead(target, (i + Math.random() * 1e9) | 0));
    await r.text();
  }
  const c = process.cpuUsage(c0);
  console.log(
    `${n} leads: ${((c.user + c.system) / n).toFixed(0)} µs CPU/lead, ${(((performance.now() - t) * 1000) / n).toFixed(0)} µs wall`,
  );
}
