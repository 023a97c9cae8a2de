import { generateOAuthSigningKey } from "@vitrina/core/oauth";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import { describe, expect, it } from "vitest";
import { startOAuthHarness } from "../../core/test/oauth/support/oauth-harness.js";
import { freshPGlite, uniqueSchema } from "./support.js";

const RESOURCE = "https://api.example.com/mcp";

describe("OAuth across two server processes over one PostgreSQL (PGlite)", () => {
  it("a token issued by one process works at the other, and a refresh reused there revokes the grant everywhere", async () => {
    const db = await freshPGlite();
    const schema = uniqueSchema();
    await migrate(db, { schema });
    // What a multi-process deployment must configure: the same key and the same public URLs.
    const oauth = {
      signingKey: { privateJwk: await generateOAuthSigningKey() },
      publicUrl: RESOURCE,
      issuer: "https://api.example.com",
    };
    const a = await startOAuthHarness({ storage: postgresStorage(db, { schema, closeDriver: false }), oauth });
    const b = await startOAuthHarness({ storage: postgresStorage(db, { schema, closeDriver: false }), oauth });
    try {
      const clientId = (await a.register()).json.client_id;
      const tokens = await a.obtainTokens(clientId, { resource: RESOURCE });
      expect((await b.callMcp(tokens.access_token)).status).toBe(200);
      expect((await b.principalOf(tokens.access_token))?.workspaceId).toBe(a.workspace.id);

      const rotated = await b.token({
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: tokens.refresh_token,
      });
      expect(rotated.status).toBe(200);
      expect((await a.callMcp(rotated.json.access_token)).status).toBe(200);
      expect(
        (await a.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: tokens.refresh_token })).json
          .error,
      ).toBe("invalid_grant");
      expect((await b.callMcp(rotated.json.access_token)).status).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await db.close();
    }
  });
});
