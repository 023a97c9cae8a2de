import { InvalidClientMetadataError, OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import { VitrinaError } from "../errors.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { OAuthClientAuthMethod, OAuthClientRecord } from "../ports/oauth-records.js";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "./metadata-routes.js";
import type { OAuthContext } from "./oauth-context.js";
import { oauthJson, withCors } from "./oauth-http.js";
import { parseScopeParameter } from "./oauth-urls.js";

/** RFC 7591 §3.2.2 `invalid_redirect_uri` (the SDK has no class for it). */
export class InvalidRedirectUriError extends OAuthError {
  static override errorCode = "invalid_redirect_uri";
}

const REGISTRATION_BODY_LIMIT = 64 * 1024;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** https anywhere, or http on a loopback host (native apps, OAuth 2.1 §8.4.2); never a fragment. */
export function checkRedirectUri(uri: string): void {
  const url = URL.canParse(uri) ? new URL(uri) : null;
  if (url === null) throw new InvalidRedirectUriError(`redirect URI ${uri} is not an absolute URL`);
  if (url.hash !== "") throw new InvalidRedirectUriError(`redirect URI ${uri} must not have a fragment`);
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return;
  throw new InvalidRedirectUriError(`redirect URI ${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost)`);
}

function subsetOrThrow(field: string, values: string[], allowed: string[]): void {
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0) throw new InvalidClientMetadataError(`${field} ${unknown.join(", ")} not supported; supported: ${allowed.join(", ")}`);
}

/** RFC 7591 §3.2.2 errors: a field under `redirect_uris` is `invalid_redirect_uri`, the rest `invalid_client_metadata`. */
function metadataError(field: string, reason: string): OAuthError {
  const message = `${field === "" ? "body" : field}: ${reason}`;
  return field.startsWith("redirect_uris") ? new InvalidRedirectUriError(message) : new InvalidClientMetadataError(message);
}

async function parseRegistration(request: Request) {
  let body: unknown;
  try {
    // No Content-Type check: registration has always read the body as JSON whatever it declares.
    body = await readJsonBody(request, { maxBytes: REGISTRATION_BODY_LIMIT, requireJsonContentType: false, subject: "client metadata" });
  } catch (error) {
    if (!(error instanceof VitrinaError) || error.code === "payload_too_large") throw error; // 413 from catchOAuthErrors
    const first = error.reasons[0];
    if (first !== undefined) throw metadataError(first.field, first.reason);
    throw new InvalidClientMetadataError("the body must be a JSON object of client metadata in UTF-8");
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw metadataError(issue.path.map(String).join("."), issue.message);
  }
  return parsed.data;
}

/**
 * `POST /register` (RFC 7591): public clients (`token_endpoint_auth_method: none`) and
 * confidential ones, whose secret is generated here, shown once in this answer and stored hashed.
 */
export function clientRegistrationRoutes(context: OAuthContext): Route[] {
  return withCors(context.corsAllowOrigin, "POST", "/register", async (request) => {
    const metadata = await parseRegistration(request);
    if (metadata.redirect_uris.length === 0) throw new InvalidRedirectUriError("redirect_uris must list at least one URI");
    metadata.redirect_uris.forEach(checkRedirectUri);
    // RFC 7591 §2: the default method is client_secret_basic.
    const method = (metadata.token_endpoint_auth_method ?? "client_secret_basic") as OAuthClientAuthMethod;
    subsetOrThrow("token_endpoint_auth_method", [method], TOKEN_ENDPOINT_AUTH_METHODS);
    const grantTypes = metadata.grant_types ?? ["authorization_code"];
    subsetOrThrow("grant_types", grantTypes, ["authorization_code", "refresh_token"]);
    subsetOrThrow("response_types", metadata.response_types ?? ["code"], ["code"]);
    const scopes = parseScopeParameter(metadata.scope);
    if (scopes !== null) subsetOrThrow("scope", scopes, context.scopesSupported);

    const secret = method === "none" ? undefined : generateSecret("vtr_ocs_");
    const issuedAt = context.clock.now();
    const client: OAuthClientRecord = {
      id: context.ids(),
      secretHash: secret === undefined ? null : await sha256Hex(secret),
      tokenEndpointAuthMethod: method,
      redirectUris: metadata.redirect_uris,
      scopes,
      metadata: { ...metadata, token_endpoint_auth_method: method, grant_types: grantTypes },
      createdAt: issuedAt.toISOString(),
    };
    await context.storage.oauthClients.insert(client);
    const information: OAuthClientInformationFull = {
      ...(client.metadata as typeof metadata),
      client_id: client.id,
      client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
      ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    };
    return oauthJson(information, 201);
  });
}
