import { describe, expect, it } from "vitest";
import { startOAuthHarness } from "../../core/test/oauth/support/oauth-harness.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

const RACES = 100;

if (!DATABASE_URL) console.log("oauth-refresh-race: skipped, DATABASE_URL is not set (a race needs real PostgreSQL)");

/**
 * One refresh token presented twice at once (a stolen copy racing the client, or a client retrying
 * blindly) on real PostgreSQL, where the two rotations run in separate transactions on separate
 * connections: at most one may get tokens, and since the other is a reuse, the grant ends, so
 * nothing either side got still works.
 */
describe.skipIf(!DATABASE_URL)("one refresh token rotated twice at once (real PostgreSQL)", () => {
  it(`issues at most one pair and leaves no token of the grant valid, in ${RACES} races`, async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const h = await startOAuthHarness({ storage });
    try {
      const clientId = (await h.register()).json.client_id;
      const refresh = (refreshToken: string) =>
        h.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken });
      let oneSideIssued = 0;
      let violations = 0;
      for (let race = 0; race < RACES; race++) {
        const granted = await h.obtainTokens(clientId);
        const answers = await Promise.all([refresh(granted.refresh_token), refresh(granted.refresh_token)]);
        const issued = answers.filter((a) => a.status === 200);
        expect(issued.length).toBeLessThanOrEqual(1);
        for (const refused of answers.filter((a) => a.status !== 200))
          expect(refused.json).toMatchObject({ error: "invalid_grant" });
        if (issued.length === 1) oneSideIssued++;
        const left = [granted, ...issued.map((a) => a.json)];
        for (const tokens of left) {
          if ((await h.principalOf(tokens.access_token)) !== null) violations++;
          if ((await refresh(tokens.refresh_token)).status === 200) violations++;
        }
      }
      console.log(
        `oauth-refresh-race: ${oneSideIssued} of ${RACES} races issued one pair; ${violations} tokens left valid`,
      );
      expect(oneSideIssued).toBeGreaterThan(0);
      expect(violations).toBe(0);
    } finally {
      await h.close();
    }
  }, 180_000);
});
