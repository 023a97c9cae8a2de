import {
  InvalidClientMetadataError,
  OAuthError,
  TooManyRequestsError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
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
import { checkRedirectUri, InvalidRedirectUriError } from "./redirect-uris.js";

export { InvalidRedirectUriError } from "./redirect-uris.js";

export const DEFAULT_REGISTRATION_MAX_BODY_BYTES = 16 * 1024;
export const DEFAULT_REGISTRATION_MAX_REDIRECT_URIS = 10;
/** Longer than any real callback URL; a bound so one registration can't store megabytes of URIs. */
const MAX_REDIRECT_URI_LENGTH = 2048;

function subsetOrThrow(field: string, values: string[], allowed: string[]): void {
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0)
    throw new InvalidClientMetadataError(
      `${field} ${unknown.join(", ")} not supported; supported: ${allowed.join(", ")}`,
    );
}

/** RFC 7591 §3.2.2 errors: a field under `redirect_uris` is `invalid_redirect_uri`, the rest `invalid_client_metadata`. */
function metadataError(field: string, reason: string): OAuthError {
  const message = `${field === "" ? "body" : field}: ${reason}`;
  return field.startsWith("redirect_uris")
    ? new InvalidRedirectUriError(message)
    : new InvalidClientMetadataError(message);
}

async function parseRegistration(request: Request, maxBytes: number) {
  let body: unknown;
  try {
    // No Content-Type check: registration has always read the body as JSON whatever it declares.
    body = await readJsonBody(request, { maxBytes, requireJsonContentType: false, subject: "client metadata" });
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
 * The authorization code flow is the only way a grant starts here (a refresh token comes from a
 * code exchange), so a client without it could never get a token: refused now, naming the field,
 * rather than registered and then stuck at its first `/authorize`.
 */
function refuseDeadEndClient(grantTypes: string[], responseTypes: string[]): void {
  if (!grantTypes.includes("authorization_code"))
    throw new InvalidClientMetadataError(
      `grant_types ${JSON.stringify(grantTypes)} must include authorization_code: every grant here starts with an authorization code`,
    );
  if (!responseTypes.includes("code"))
    throw new InvalidClientMetadataError(
      "response_types must include code (the authorization code flow is the only one this server offers)",
    );
}

function checkRedirectUris(uris: string[], publicClient: boolean, maxCount: number): void {
  if (uris.length === 0) throw new InvalidRedirectUriError("redirect_uris must list at least one URI");
  if (uris.length > maxCount)
    throw new InvalidRedirectUriError(`redirect_uris lists ${uris.length} URIs; at most ${maxCount} are accepted`);
  for (const uri of uris) {
    if (uri.length > MAX_REDIRECT_URI_LENGTH)
      throw new InvalidRedirectUriError(`a redirect URI is longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
    checkRedirectUri(uri, { publicClient });
  }
}

function tooManyRegistrations(retryAfterSeconds: number): Response {
  const error = new TooManyRequestsError("too many client registrations; retry later");
  return oauthJson(error.toResponseObject(), 429, { "retry-after": String(retryAfterSeconds) });
}

/**
 * `POST /register` (RFC 7591): public clients (`token_endpoint_auth_method: none`) and
 * confidential ones, whose secret is generated here, shown once in this answer and stored hashed.
 * Open to anyone, so bounded: a rate limit (before the body is read), a body size and a count of
 * redirect URIs. The answer echoes every registered field, defaults included (RFC 7591 §3.2.1).
 */
export function clientRegistrationRoutes(context: OAuthContext): Route[] {
  const limits = context.options.registration ?? {};
  const maxBodyBytes = limits.maxBodyBytes ?? DEFAULT_REGISTRATION_MAX_BODY_BYTES;
  const maxRedirectUris = limits.maxRedirectUris ?? DEFAULT_REGISTRATION_MAX_REDIRECT_URIS;
  return withCors(context.corsAllowOrigin, "POST", "/register", async (request) => {
    const admission = context.admitRegistration(request);
    if (!admission.admitted) {
      await request.body?.cancel(); // drain: a client must not hang on an unread body
      return tooManyRegistrations(admission.retryAfterSeconds);
    }
    const metadata = await parseRegistration(request, maxBodyBytes);
    // RFC 7591 §2: the default method is client_secret_basic.
    const method = (metadata.token_endpoint_auth_method ?? "client_secret_basic") as OAuthClientAuthMethod;
    subsetOrThrow("token_endpoint_auth_method", [method], TOKEN_ENDPOINT_AUTH_METHODS);
    checkRedirectUris(metadata.redirect_uris, method === "none", maxRedirectUris);
    const grantTypes = metadata.grant_types ?? ["authorization_code"];
    subsetOrThrow("grant_types", grantTypes, ["authorization_code", "refresh_token"]);
    const responseTypes = metadata.response_types ?? ["code"];
    subsetOrThrow("response_types", responseTypes, ["code"]);
    refuseDeadEndClient(grantTypes, responseTypes);
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
      // Stored with its defaults, so what is echoed is what is enforced. No `scope` stays absent
      // (any supported scope, as `scopesSupported` is today) and is echoed as that list below.
      metadata: {
        ...metadata,
        token_endpoint_auth_method: method,
        grant_types: grantTypes,
        response_types: responseTypes,
      },
      createdAt: issuedAt.toISOString(),
      approvedAt: null,
    };
    await context.storage.oauthClients.insert(client);
    const information: OAuthClientInformationFull = {
      ...(client.metadata as typeof metadata),
      scope: (scopes ?? context.scopesSupported).join(" "),
      client_id: client.id,
      client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
      ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    };
    return oauthJson(information, 201);
  });
}
