import { InvalidClientError, InvalidRequestError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { timingSafeEqualStrings } from "../crypto/hmac.js";
import { sha256Hex } from "../crypto/random.js";
import type { OAuthClientRecord } from "../ports/oauth-records.js";
import type { Storage } from "../ports/storage.js";
import { isStorableText } from "../validation/storable-text.js";

interface PresentedCredentials {
  clientId: string;
  secret: string | null;
}

/** One form-urlencoded half of Basic credentials; a bad escape (`%zz`) or a `%00` is a malformed credential. */
function unescapeBasicPart(part: string): string {
  let value: string;
  try {
    value = decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw new InvalidClientError("malformed Basic credentials (bad percent-encoding)");
  }
  if (!isStorableText(value)) throw new InvalidClientError("malformed Basic credentials (U+0000)");
  return value;
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function basicCredentials(header: string | null): PresentedCredentials | null {
  const match = header === null ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match === null) return null;
  let decoded: string;
  try {
    decoded = atob(match[1]!);
  } catch {
    throw new InvalidClientError("malformed Basic credentials");
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new InvalidClientError("malformed Basic credentials");
  return { clientId: unescapeBasicPart(decoded.slice(0, colon)), secret: unescapeBasicPart(decoded.slice(colon + 1)) };
}

function presentedCredentials(request: Request, form: URLSearchParams): PresentedCredentials {
  const basic = basicCredentials(request.headers.get("authorization"));
  const bodyId = form.get("client_id");
  if (basic !== null) {
    if (form.has("client_secret")) throw new InvalidRequestError("use one client authentication method, not two");
    if (bodyId !== null && bodyId !== basic.clientId)
      throw new InvalidRequestError("client_id does not match the Basic credentials");
    return basic;
  }
  if (bodyId === null) throw new InvalidClientError("client authentication is required (client_id)");
  return { clientId: bodyId, secret: form.get("client_secret") };
}

/**
 * Authenticates the client at `/token` and `/revoke`. Confidential clients prove their secret by
 * Basic or by body parameter (either is proof of possession); public clients send only their id.
 * Every failure is the same `invalid_client`, so nothing tells an attacker which part was wrong.
 */
export async function authenticateClient(
  storage: Storage,
  request: Request,
  form: URLSearchParams,
): Promise<OAuthClientRecord> {
  const presented = presentedCredentials(request, form);
  const client = await storage.oauthClients.get(presented.clientId);
  if (client === null) throw new InvalidClientError("client authentication failed");
  if (client.secretHash === null) {
    if (presented.secret !== null)
      throw new InvalidClientError("client authentication failed (public client sent a secret)");
    return client;
  }
  if (presented.secret === null || !timingSafeEqualStrings(await sha256Hex(presented.secret), client.secretHash)) {
    throw new InvalidClientError("client authentication failed");
  }
  return client;
}
