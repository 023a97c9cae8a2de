import { wholeList, type ListPage } from "../http/list-page.js";
import { InsufficientScopeError, NotFoundError } from "../errors.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import { API_KEY_PREFIX } from "../auth/api-keys.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Storage } from "../ports/storage.js";
import type { ApiKeyRecord } from "../ports/webhook-records.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import type { ApiKeyIssue } from "./admin-input.js";
import { apiKeyView, type ApiKeyWireView } from "./admin-views.js";

/** How much of a key listings show: the prefix and 4 random characters. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 4;

/**
 * A credential (an API key, an OAuth token) issues keys only within its own scopes: otherwise a
 * leaked `admin:write` key mints itself `customers:write` and everything else in one request. A
 * console session is bounded by its member's role instead, which already allows every scope.
 */
function requireHeldScopes(caller: AdminCaller, scopes: string[]): void {
  if (caller.principal.kind === "console") return;
  const held = new Set(caller.principal.scopes);
  const reasons = scopes.flatMap((scope, i) =>
    held.has(scope)
      ? []
      : [{ field: `scopes.${i}`, reason: `the calling credential does not hold ${scope}, so it can't grant it` }],
  );
  if (reasons.length > 0)
    throw new InsufficientScopeError("an API key can only issue keys with scopes it holds itself", { reasons });
}

/**
 * API keys for the admin API: owners and admins issue (the key is returned once, stored as
 * SHA-256) and revoke (refused from the next request on); members see the list.
 */
export function createApiKeyAdmin(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  const withUsage = async (keys: ApiKeyRecord[]) => {
    const lastUsed = await storage.apiKeyUsage.lastUsed(keys.map((k) => k.id));
    return keys.map((k) => apiKeyView(k, lastUsed.get(k.id) ?? null));
  };
  return {
    async issue(caller: AdminCaller, input: ApiKeyIssue): Promise<{ api_key: ApiKeyWireView; key: string }> {
      requireManager(caller, "issue API keys");
      requireHeldScopes(caller, input.scopes);
      const key = generateSecret(API_KEY_PREFIX);
      const record: ApiKeyRecord = {
        id: ids(),
        workspaceId: caller.workspaceId,
        name: input.name,
        visiblePrefix: key.slice(0, VISIBLE_LENGTH),
        hash: await sha256Hex(key),
        scopes: [...new Set(input.scopes)],
        // A key issued by a key names its issuer, so the audit trail has no gap.
        createdBy: caller.userId ?? `api_key:${caller.principal.keyId}`,
        createdAt: clock.now().toISOString(),
        revokedAt: null,
      };
      await storage.apiKeys.insert(record);
      return { api_key: apiKeyView(record, null), key };
    },

    async list(caller: AdminCaller): Promise<ListPage<ApiKeyWireView>> {
      const keys = await storage.apiKeys.listByWorkspace(caller.workspaceId);
      return wholeList(await withUsage(keys));
    },

    /** Stops the key at once; revoking twice keeps the first time. */
    async revoke(caller: AdminCaller, id: string): Promise<ApiKeyWireView> {
      requireManager(caller, "revoke API keys");
      const revoked = await storage.apiKeys.revoke(caller.workspaceId, id, clock.now().toISOString());
      if (revoked === null) throw new NotFoundError(`API key ${id} does not exist`);
      return (await withUsage([revoked]))[0]!;
    },
  };
}
export type ApiKeyAdmin = ReturnType<typeof createApiKeyAdmin>;
