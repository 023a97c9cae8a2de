import { hmacKey, hmacSha256Hex, type HmacKey } from "../crypto/hmac.js";
import { utf8Bytes } from "../crypto/encoding.js";
import type { SecretBox } from "../ports/secret-box.js";

/**
 * Keyed hashes (HMAC-SHA256, hex) of a person's phone and provider user id, for the suppression
 * entry an erasure keeps. The key is derived from the instance's secret box, so the hashes can't be
 * reversed by trying every phone number without it, and the workspace is part of what is hashed,
 * so two workspaces' entries for one person don't match each other.
 */
export interface SuppressionHasher {
  phone(workspaceId: string, phoneE164: string): Promise<string>;
  userId(workspaceId: string, userId: string): Promise<string>;
}

/** The hasher over `secretBox`'s derived key; null when the box can't derive keys. */
export function suppressionHasher(secretBox: SecretBox): SuppressionHasher | null {
  const derive = secretBox.deriveKey?.bind(secretBox);
  if (derive === undefined) return null;
  let key: Promise<HmacKey> | undefined;
  const hash = async (workspaceId: string, kind: string, value: string) => {
    key ??= derive("suppression").then(hmacKey);
    return hmacSha256Hex(await key, utf8Bytes(`${workspaceId}\n${kind}\n${value}`));
  };
  return {
    phone: (workspaceId, phoneE164) => hash(workspaceId, "phone", phoneE164),
    userId: (workspaceId, userId) => hash(workspaceId, "whatsapp_user_id", userId),
  };
}
