import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * An MCP client's side of OAuth, as a desktop client would keep it: in memory, browser replaced by
 * fetch. `redirectUrl` is where the client listens; `registeredRedirectUri` what it registers
 * (a native client registers its loopback URI without a port and listens on a free one).
 */
export class TestClientProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;

  constructor(
    options: {
      redirectUrl?: string;
      registeredRedirectUri?: string;
      authMethod?: "none" | "client_secret_basic" | "client_secret_post";
      clientName?: string;
    } = {},
  ) {
    this.redirectUrl = options.redirectUrl ?? "http://127.0.0.1:9999/callback";
    this.clientMetadata = {
      client_name: options.clientName ?? "SDK test client",
      redirect_uris: [options.registeredRedirectUri ?? this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: options.authMethod ?? "none",
    };
  }

  state = () => "sdk-state-42";
  clientInformation = () => this.information;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.information = info);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
}
