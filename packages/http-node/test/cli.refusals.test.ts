import { signLead } from "@vitrina/client";
import { describe, expect, it } from "vitest";
import { connectorsCommand } from "../src/cli/connectors.js";
import { workspacesCommand } from "../src/cli/workspaces.js";
import { openCliContext } from "../src/cli/context.js";
import { useTempPgliteDataDir } from "./support/temp-pglite-env.js";
import { cliSetup } from "./support/cli-main.js";
import { runCliJson } from "./support/cli-run.js";

// `vitrina connectors refusals <id>` against embedded PGlite: the refusals recorded by a server on
// the same database, as the integrator's first question ("why was my lead refused?") needs them.
useTempPgliteDataDir("vitrina-cli-refusals-", { seeded: true });

const run = runCliJson;

describe("vitrina connectors refusals", () => {
  it("prints a connector's refused leads (code, fields, skew, request id) to a member, and refuses a stranger", async () => {
    const workspace = await run(workspacesCommand, ["create"], { name: "Andes", owner: "ana" });
    const { connector } = await run(connectorsCommand, ["create"], {
      workspace: workspace.id,
      name: "HubSpot",
      "system-id": "hubspot",
      user: "ana",
    });
    const server = await openCliContext(cliSetup({ env: { ...process.env } }).setup);
    try {
      const body = JSON.stringify({ event: "lead.created" });
      const { headers } = signLead({ connectorId: connector.id, secret: "not-the-secret", body });
      const response = await server.vitrina.handler(
        new Request("http://vitrina.test/functions/v1/lead-intake", {
          method: "POST",
          headers: { ...headers, "x-request-id": "req-cli-1" },
          body,
        }),
      );
      expect(response.status).toBe(401);
    } finally {
      await server.vitrina.close();
    }
    const refusals = await run(connectorsCommand, ["refusals", connector.id], { user: "ana" });
    expect(refusals).toEqual([
      expect.objectContaining({
        connectorId: connector.id,
        code: "invalid_signature",
        fields: ["X-Vitrina-Signature"],
        requestId: "req-cli-1",
        unrecordedBefore: 0,
      }),
    ]);
    expect(JSON.stringify(refusals)).not.toContain("not-the-secret");
    await expect(run(connectorsCommand, ["refusals", connector.id], { user: "mallory" })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(run(connectorsCommand, ["refusals", crypto.randomUUID()], { user: "ana" })).rejects.toMatchObject({
      code: "not_found",
    });
  }, 180_000);
});
