import { describe, expect, it } from "vitest";
import { startOAuthHarness } from "../../core/test/oauth/support/oauth-harness.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

const RACES = 100;

if (!DATABASE_URL) console.log("oauth-code-race: skipped, DATABASE_URL is not set (a race needs real PostgreSQL)");

describe.skipIf(!DATABASE_URL)("one authorization code exchanged twice at once (real PostgreSQL)", () => {
  it(`leaves no token from the double-spent code valid, in ${RACES} races`, async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const h = await startOAuthHarness({ storage });
    try {
      const clientId = (await h.register()).json.client_id;
      let violations = 0;
      let doubleSpends = 0;
      for (let race = 0; race < RACES; race++) {
        const { code, verifier } = await h.obtainCode(clientId);
        const form = {
          grant_type: "authorization_code",
          client_id: clientId,
          code,
          code_verifier: verifier,
          redirect_uri: "http://127.0.0.1:9999/callback",
        };
        const answers = await Promise.all([h.token(form), h.token(form)]);
        const issued = answers.filter((a) => a.status === 200);
        expect(issued.length).toBeLessThanOrEqual(1);
        if (issued.length === 1) doubleSpends++;
        for (const answer of issued) {
          const stillValid = (await h.principalOf(answer.json.access_token)) !== null;
          const refresh = await h.token({
            grant_type: "refresh_token",
            client_id: clientId,
            refresh_token: answer.json.refresh_token,
          });
          if (stillValid || refresh.status === 200) violations++;
        }
      }
      console.log(
        `oauth-code-race: ${doubleSpends} of ${RACES} races issued tokens to one side; ${violations} left a token valid`,
      );
      expect(violations).toBe(0);
    } finally {
      await h.close();
    }
  }, 120_000);
});
