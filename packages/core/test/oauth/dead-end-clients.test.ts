import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

/**
 * The authorization code grant is the only way this server starts a grant: a client that did not
 * register it (`grant_types` without `authorization_code`, or `response_types` without `code`) can
 * never obtain a token. Registration refuses such metadata naming the field, and `/authorize`
 * refuses such a client (`unauthorized_client`, RFC 6749 §4.1.2.1) before any user is asked to
 * consent to a code nobody can exchange, and without marking the client approved.
 */
describe("clients that could never get a token", () => {
  let h: OAuthHarness;
  let consents = 0;

  beforeAll(async () => {
    h = await startOAuthHarness({
      authorize: async (_request, { scopes }) => {
        consents++;
        return { userId: "owner-1", workspaceId: h.workspace.id, grantedScopes: scopes };
      },
    });
  });
  afterAll(async () => h?.close());

  it("are refused at registration, naming the field", async () => {
    for (const [metadata, field] of [
      [{ grant_types: ["refresh_token"] }, "grant_types"],
      [{ grant_types: [] }, "grant_types"],
      [{ response_types: [] }, "response_types"],
    ] as const) {
      const res = await h.register(metadata);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        error: "invalid_client_metadata",
        error_description: expect.stringMatching(new RegExp(`^${field} `)),
      });
    }
    // The defaults and the usual shapes still register.
    expect((await h.register({ grant_types: undefined, response_types: undefined })).status).toBe(201);
    expect((await h.register({ grant_types: ["authorization_code"] })).status).toBe(201);
  });

  it("stored before (or by another adapter), get unauthorized_client at /authorize with no consent asked and no approval", async () => {
    const base = (await h.register()).json;
    for (const [id, metadata] of [
      ["refresh-only", { ...base, grant_types: ["refresh_token"] }],
      ["no-response-types", { ...base, response_types: [] }],
    ] as const) {
      await h.storage.oauthClients.insert({
        id,
        secretHash: null,
        tokenEndpointAuthMethod: "none",
        redirectUris: ["http://127.0.0.1:9999/callback"],
        scopes: null,
        metadata,
        createdAt: new Date().toISOString(),
        approvedAt: null,
      });
      const before = consents;
      const { response, location } = await h.authorize(id);
      expect(location).toBeNull();
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: "unauthorized_client",
        error_description: expect.stringMatching(id === "refresh-only" ? /authorization_code/ : /code/),
      });
      expect(consents).toBe(before);
      expect((await h.storage.oauthClients.get(id))?.approvedAt).toBeNull();
    }
  });
});
