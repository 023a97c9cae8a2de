import { NotFoundError, ValidationError } from "../errors.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Storage } from "../ports/storage.js";
import type { ApiKeyRecord } from "../ports/webhook-records.js";
import { requireRole, type Actor } from "../workspaces/workspace-service.js";
import { API_KEY_PREFIX, bearerToken, readsHeadersOnly, type Authenticator, type Principal } from "./principal.js";
import { isScope, SCOPES } from "./scopes.js";

// Declared beside the 401 that tells credentials apart by it; re-exported for the key issuers.
export { API_KEY_PREFIX };
/** `last_used_at` is written at most this often per key: a listing needs minutes, not every request. */
export const API_KEY_USAGE_INTERVAL_MS = 60_000;
/** How much of a key the console may show: the prefix and 4 random characters. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 4;

/** A key as listings show it: never the hash. */
export type ApiKeyView = Omit<ApiKeyRecord, "hash">;

function view(record: ApiKeyRecord): ApiKeyView {
  const { hash: _hash, ...rest } = record;
  return rest;
}

function validate(input: { name: string; scopes: string[] }): void {
  const reasons = [];
  if (input.name.trim() === "" || input.name.length > 120)
    reasons.push({ field: "name", reason: "must be 1 to 120 characters" });
  input.scopes.forEach((scope, i) => {
    if (!isScope(scope))
      reasons.push({ field: `scopes.${i}`, reason: `unknown scope "${scope}"; known: ${SCOPES.join(", ")}` });
  });
  if (reasons.length > 0) throw new ValidationError("API key is invalid", reasons);
}

/**
 * API keys: issued by an owner or admin with scopes, shown once, stored only as SHA-256, revocable.
 * `authenticate` turns a bearer token into a principal for any feature (webhooks, MCP).
 */
export function createApiKeyService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  // This process's last touch per key: skips even the conditional UPDATE within the interval.
  const touchedAt = new Map<string, number>();

  async function noteUse(keyId: string): Promise<void> {
    const now = clock.now();
    const last = touchedAt.get(keyId);
    if (last !== undefined && now.getTime() - last < API_KEY_USAGE_INTERVAL_MS) return;
    if (touchedAt.size > 10_000) touchedAt.clear();
    touchedAt.set(keyId, now.getTime());
    await storage.apiKeyUsage.touch(keyId, now.toISOString(), API_KEY_USAGE_INTERVAL_MS);
  }

  async function authenticateApiKey(bearer: string): Promise<Principal | null> {
    if (!bearer.startsWith(API_KEY_PREFIX)) return null;
    // SHA-256 of a 256-bit random key: a lookup by hash leaks nothing useful through timing.
    const key = await storage.apiKeys.findByHash(await sha256Hex(bearer));
    if (key === null || key.revokedAt !== null) return null;
    await noteUse(key.id);
    return { kind: "api_key", workspaceId: key.workspaceId, keyId: key.id, scopes: key.scopes };
  }

  const authenticator: Authenticator = readsHeadersOnly(async (request) => {
    const token = bearerToken(request);
    return token === null ? null : authenticateApiKey(token);
  });

  return {
    authenticateApiKey,
    /** `Authorization: Bearer vtr_live_…` → principal; plug into `firstOf` beside an OAuth verifier. */
    authenticator,

    async issue(
      actor: Actor,
      workspaceId: string,
      input: { name: string; scopes: string[] },
    ): Promise<{ key: ApiKeyView; secret: string }> {
      validate(input);
      await requireRole(storage, actor, workspaceId, ["owner", "admin"], "issue API keys");
      const secret = generateSecret(API_KEY_PREFIX);
      const record: ApiKeyRecord = {
        id: ids(),
        workspaceId,
        name: input.name.trim(),
        visiblePrefix: secret.slice(0, VISIBLE_LENGTH),
        hash: await sha256Hex(secret),
        scopes: [...new Set(input.scopes)],
        createdBy: actor.userId,
        createdAt: clock.now().toISOString(),
        revokedAt: null,
      };
      await storage.apiKeys.insert(record);
      return { key: view(record), secret };
    },

    async list(actor: Actor, workspaceId: string): Promise<ApiKeyView[]> {
      await requireRole(storage, actor, workspaceId, ["owner", "admin"], "list API keys");
      return (await storage.apiKeys.listByWorkspace(workspaceId)).map(view);
    },

    /** Stops the key working at once. Revoking twice keeps the first time. */
    async revoke(actor: Actor, workspaceId: string, keyId: string): Promise<ApiKeyView> {
      await requireRole(storage, actor, workspaceId, ["owner", "admin"], "revoke API keys");
      const revoked = await storage.apiKeys.revoke(workspaceId, keyId, clock.now().toISOString());
      if (revoked === null) throw new NotFoundError(`API key ${keyId} does not exist`);
      return view(revoked);
    },
  };
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
