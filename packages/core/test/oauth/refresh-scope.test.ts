import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

/**
 * RFC 6749 §6 (and OAuth 2.1 §4.3.3): a refresh may ask for fewer scopes for the new access token,
 * but "if a new refresh token is issued, the refresh token scope MUST be identical to that of the
 * refresh token included by the client in the request". Narrowing one access token must not cost
 * the client the rest of its grant.
 */
describe("a refresh that narrows scope", () => {
  let h: OAuthHarness;
  let clientId: string;
  const refresh = (refreshToken: string, scope?: string) =>
    h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: refreshToken,
      ...(scope === undefined ? {} : { scope }),
    });

  beforeAll(async () => {
    h = await startOAuthHarness();
    clientId = (await h.register()).json.client_id;
  });
  afterAll(async () => h?.close());

  it("narrows the access token only; the new refresh token keeps the scopes of the one presented", async () => {
    const granted = await h.obtainTokens(clientId, { scope: "catalog:read customers:read" });
    expect(granted.scope).toBe("catalog:read customers:read");

    const narrowed = await refresh(granted.refresh_token, "catalog:read");
    expect(narrowed.status).toBe(200);
    expect(narrowed.json.scope).toBe("catalog:read");
    expect((await h.principalOf(narrowed.json.access_token))?.scopes).toEqual(["catalog:read"]);

    // No `scope`: "treated as equal to the scope originally granted by the resource owner".
    const full = await refresh(narrowed.json.refresh_token);
    expect(full.status).toBe(200);
    expect(full.json.scope).toBe("catalog:read customers:read");
    expect((await h.principalOf(full.json.access_token))?.scopes).toEqual(["catalog:read", "customers:read"]);

    // And a scope narrowed away once may be asked for again, since it is still granted.
    const customersOnly = await refresh(full.json.refresh_token, "customers:read");
    expect(customersOnly).toMatchObject({ status: 200, json: { scope: "customers:read" } });
    const again = await refresh(customersOnly.json.refresh_token, "catalog:read customers:read");
    expect(again).toMatchObject({ status: 200, json: { scope: "catalog:read customers:read" } });
  });

  it("still never widens past the grant", async () => {
    const granted = await h.obtainTokens(clientId, { scope: "catalog:read" });
    const narrowedThenWider = await refresh(granted.refresh_token, "catalog:read customers:read");
    expect(narrowedThenWider).toMatchObject({ status: 400, json: { error: "invalid_scope" } });
  });
});
