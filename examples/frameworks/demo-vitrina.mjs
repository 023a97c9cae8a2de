// The Vitrina every framework example mounts: memory storage, a workspace with a connector (to
// sign leads) and an API key (for MCP). Real apps build theirs once at startup the same way.
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { memoryStorage } from "@vitrina/adapter-memory";
import { consoleLogger, createVitrina } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

/** `options` go to createVitrina (e.g. `{ basePath: "/vitrina" }`). */
export async function createDemoVitrina(options = {}) {
  const logger = options.logger ?? consoleLogger;
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(logger),
    secretBox: randomBytes(32).toString("base64"),
    logger,
    ...options,
  });
  const actor = { userId: "owner" };
  const workspace = await vitrina.workspaces.create({ name: "Framework demo", ownerUserId: actor.userId });
  const { connector, secret } = await vitrina.connectors.create(actor, {
    workspaceId: workspace.id,
    name: "CRM",
    systemId: "crm",
  });
  const apiKey = await vitrina.apiKeys.issue(actor, workspace.id, {
    name: "mcp",
    scopes: ["catalog:read", "inventory:read"],
  });
  return { vitrina, workspace, connector, connectorSecret: secret, apiKey: apiKey.secret };
}

/** True when the example file was run with `node <file>` rather than imported (by the tests). */
export const isMain = (meta) => process.argv[1] === fileURLToPath(meta.url);

/** What a running example prints: where Vitrina answers and how to try it. */
export function printTryIt(base, demo) {
  console.log(`Vitrina mounted at ${base}`);
  console.log(`  catalog:  curl ${base}/v1/capabilities`);
  console.log(`  MCP:      Bearer ${demo.apiKey}`);
  console.log(`  leads:    connector ${demo.connector.id}, secret ${demo.connectorSecret}`);
}
