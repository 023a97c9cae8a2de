import type { RetentionStep } from "../maintenance/retention.js";
import { undocumented } from "../http/route-doc.js";
import type { Surface } from "../surface.js";
import { purgeExpiredOAuthRecords } from "./purge-records.js";
import type { OAuthServer } from "./oauth-routes.js";
import { authorizationServerMetadataUrl, protectedResourceMetadataUrl } from "./oauth-urls.js";

/**
 * One retention step for every OAuth record kind, in batches of the run's `batchSize` per kind (a
 * backlog of abandoned registrations in one statement could outlast the statement timeout, and
 * then never be purged); the report counts the kinds together.
 */
export const oauthRetentionStep: RetentionStep = {
  kind: "oauth",
  async run({ storage, now, batchSize, withinBudget }) {
    let removed = 0;
    for (;;) {
      const purged = await purgeExpiredOAuthRecords(storage, now, { limit: batchSize });
      removed += purged.codes + purged.grants + purged.refreshTokens + purged.clients;
      const full = Math.max(purged.codes, purged.grants, purged.refreshTokens, purged.clients) >= batchSize;
      if (!full || !withinBudget()) return removed;
    }
  },
};

/**
 * The OAuth server as a surface: its routes; expired codes, spent refresh tokens past expiry,
 * ended grants and unapproved clients purged with the rest of retention (one schedule, one
 * `vitrina cleanup`); and the discovery documents' root paths (RFC 9728, RFC 8414), path-inserted
 * as clients build them, for each protected resource that is on (`resourcePaths`: REST's, A2A's).
 */
export function oauthSurface(server: OAuthServer, resourcePaths: string[]): Surface {
  const urls = server.context.urls(new Request("http://vitrina.invalid/"));
  const resourceMetadataPath = (path: string) =>
    new URL(protectedResourceMetadataUrl(`${urls.apiBase}${path}`)).pathname;
  return {
    routes: undocumented(
      server.routes,
      "OAuth 2.1 (authorize, token, register, revoke, JWKS, discovery): described by its RFC 8414 and RFC 9728 metadata, which clients read",
    ),
    retentionSteps: [oauthRetentionStep],
    wellKnownPaths: [
      new URL(urls.resourceMetadata).pathname,
      new URL(authorizationServerMetadataUrl(urls.issuer)).pathname,
      ...resourcePaths.map(resourceMetadataPath),
    ],
  };
}
