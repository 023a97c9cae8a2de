import type { CapabilityDescriptor } from "../capabilities/definition.js";
import { A2A_PROTOCOL_VERSION, CAPABILITY_CALL_EXTENSION } from "./a2a-options.js";
import { exampleCall } from "./example-call.js";

const JSON_MODE = "application/json";

/** A security requirement in the card's ProtoJSON form: scheme name → the scopes it needs. */
type SecurityRequirement = { schemes: Record<string, { list: string[] }> };

export interface AgentCardOptions {
  name: string;
  description: string;
  /** The agent's version: core's. */
  version: string;
  /** The JSON-RPC endpoint, absolute (`https://shop.example.com/a2a`). */
  a2aUrl: string;
  /** `GET /v1/capabilities`, absolute: where the extension sends clients for the input schemas. */
  catalogUrl: string;
  /** Our authorization server, when OAuth is on: the card's second security scheme. */
  oauth?: { metadataUrl: string; authorizationUrl: string; tokenUrl: string; scopes: string[] };
}

/** API keys as bearer tokens always; OAuth 2.1 (authorization code with PKCE) when it is on. */
function securitySchemes(options: AgentCardOptions) {
  const schemes: Record<string, unknown> = {
    apiKey: {
      httpAuthSecurityScheme: {
        scheme: "Bearer",
        description: "A Vitrina API key (vtr_live_…) sent as Authorization: Bearer; its scopes are the capabilities'",
      },
    },
  };
  if (options.oauth !== undefined) {
    const { oauth } = options;
    schemes.oauth2 = {
      oauth2SecurityScheme: {
        description: `OAuth 2.1 access tokens issued for this agent's URL as their resource (RFC 8707); tokens for MCP or REST are refused here`,
        oauth2MetadataUrl: oauth.metadataUrl,
        flows: {
          authorizationCode: {
            authorizationUrl: oauth.authorizationUrl,
            tokenUrl: oauth.tokenUrl,
            refreshUrl: oauth.tokenUrl,
            scopes: Object.fromEntries(oauth.scopes.map((scope) => [scope, `Vitrina scope ${scope}`])),
            pkceRequired: true,
          },
        },
      },
    };
  }
  return schemes;
}

/**
 * Who may call a skill: an API key (its scopes are checked on the call), or an OAuth token with the
 * capability's scopes: one requirement per scope for `anyOf`, one with all of them for `allOf`.
 */
function skillRequirements(descriptor: CapabilityDescriptor, oauth: boolean): SecurityRequirement[] {
  const apiKey: SecurityRequirement = { schemes: { apiKey: { list: [] } } };
  if (!oauth) return [apiKey];
  const scopeSets =
    descriptor.scopeMatch === "allOf" ? [descriptor.requiredScopes] : descriptor.requiredScopes.map((s) => [s]);
  return [apiKey, ...scopeSets.map((list) => ({ schemes: { oauth2: { list } } }))];
}

/** One skill per capability: its name, its catalog summary, an example call built from its input schema. */
function skillOf(descriptor: CapabilityDescriptor, oauth: boolean) {
  return {
    id: descriptor.name,
    name: descriptor.name,
    description: descriptor.summary,
    tags: [descriptor.execution, descriptor.riskClass, ...descriptor.requiredScopes],
    examples: [JSON.stringify(exampleCall(descriptor))],
    inputModes: [JSON_MODE],
    outputModes: [JSON_MODE],
    securityRequirements: skillRequirements(descriptor, oauth),
  };
}

/**
 * The A2A v1.0 agent card (ProtoJSON field names): one JSON-RPC interface, no streaming, push
 * notifications or extended card, the security schemes that exist, one skill per capability, and
 * the capability-call extension pointing at the catalog for the schemas skills can't carry.
 */
export function buildAgentCard(descriptors: CapabilityDescriptor[], options: AgentCardOptions) {
  const oauth = options.oauth !== undefined;
  return {
    name: options.name,
    description: options.description,
    supportedInterfaces: [{ url: options.a2aUrl, protocolBinding: "JSONRPC", protocolVersion: A2A_PROTOCOL_VERSION }],
    version: options.version,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: CAPABILITY_CALL_EXTENSION,
          description:
            "Call a skill with one data part { capability, input } (the idempotency key of a command in the message metadata, idempotencyKey); the input and output JSON Schemas are in the catalog",
          required: true,
          params: { catalog: options.catalogUrl, idempotencyKeyMetadata: "idempotencyKey" },
        },
      ],
    },
    securitySchemes: securitySchemes(options),
    securityRequirements: [
      { schemes: { apiKey: { list: [] } } },
      ...(oauth ? [{ schemes: { oauth2: { list: [] } } }] : []),
    ] satisfies SecurityRequirement[],
    defaultInputModes: [JSON_MODE],
    defaultOutputModes: [JSON_MODE],
    skills: descriptors.map((descriptor) => skillOf(descriptor, oauth)),
  };
}
export type AgentCard = ReturnType<typeof buildAgentCard>;
