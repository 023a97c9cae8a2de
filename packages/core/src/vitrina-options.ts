import type { CapabilityOptions } from "./capabilities/capability-service.js";
import type { LeadRefusalOptions } from "./leads/lead-refusals.js";
import type { CapabilityPolicy } from "./capabilities/policies.js";
import type { MountOptions } from "./http/mount.js";
import type { FirstMessageOptions } from "./leads/first-message.js";
import type { VerticalDefinitions } from "./leads/qualification.js";
import type { OAuthOptions } from "./oauth/oauth-options.js";
import type { RestOptions } from "./rest/rest-options.js";
import type { A2aOptions } from "./a2a/a2a-options.js";
import type { McpOptions } from "./mcp/mcp-options.js";
import type { Clock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/ids.js";
import type { Logger } from "./ports/logger.js";
import type { InventoryProvider } from "./ports/inventory.js";
import type { MessagingTransport } from "./ports/messaging.js";
import type { SecretBox } from "./ports/secret-box.js";
import type { Storage } from "./ports/storage.js";
import type { WebhookOptions } from "./webhooks/create-outbox.js";
import type { Authenticator } from "./auth/principal.js";
import type { VatRate } from "./commerce/quote-service.js";
import type { HealthOptions } from "./http/health-routes.js";
import type { ConsoleSurface } from "./admin/console-host.js";
import type { FirstMessageRecoveryOptions } from "./leads/reconcile-first-messages.js";
import type { RetentionOptions } from "./maintenance/retention.js";
import type { GraphPost } from "./messaging/whatsapp-cloud.js";

export interface VitrinaOptions extends MountOptions {
  storage: Storage;
  /**
   * Sends WhatsApp messages for workspaces without a channel of their own that holds an access
   * token (see `whatsAppCloudTransport`, and `whatsapp.channels` for per-workspace numbers).
   */
  messaging: MessagingTransport;
  /** The WhatsApp channel's webhook (`POST /functions/v1/whatsapp-webhook`). See the core README, "WhatsApp channel". */
  whatsapp?: {
    /** Largest accepted webhook body in bytes. Default 4194304 (4 MiB: the provider sends up to 3 MB). */
    maxBodyBytes?: number;
    /** How channels POST to the Graph API: `nodeWhatsAppOptions()` from `@vitrina/http-node` passes undici's request API. Default: `fetch`. */
    post?: GraphPost;
    /** The `fetch` the default `post` uses (tests, proxies). Default the global one. */
    fetch?: typeof fetch;
  };
  /** Seals connector secrets at rest: a SecretBox, or a 32-byte AES key (base64) for the built-in one. */
  secretBox: SecretBox | string;
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * Where Vitrina writes what it does (pino's `(fields, message)` order, so `pino()` plugs in).
   * Default: warnings and errors as JSON lines on stderr. See the README's "Operating Vitrina".
   */
  logger?: Logger;
  /**
   * Serves `GET /healthz` and `GET /readyz` for probes; off unless `true` or options are given.
   * See the README's "Operating Vitrina".
   */
  health?: boolean | HealthOptions;
  /** Replaces `Vitrina` in header names: `X-<prefix>-Timestamp`, `<prefix>-Signature`. */
  headerPrefix?: string;
  /** Capability runtime and catalog: attempt lease, MCP address in the catalog, extra capabilities. */
  capabilities?: CapabilityOptions;
  /** External stock sources `inventory.check` asks besides the native catalog (ERP, e-commerce). */
  inventoryProviders?: InventoryProvider[];
  /** Evaluated before every command capability; the first to block leaves a task for a person. */
  policies?: CapabilityPolicy[];
  /** Outgoing webhooks: destination policy, timeouts, retries. See the core README, "Webhooks". */
  webhooks?: WebhookOptions;
  quotes?: {
    /** VAT as a fraction, or per workspace. Default 0.19 for CLP workspaces, 0 otherwise. */
    vatRate?: VatRate;
  };
  /**
   * Extra authenticators tried after API keys on bearer-protected routes (e.g. an OAuth 2.1
   * token verifier). Each returns a principal or null.
   */
  authenticators?: Authenticator[];
  leadIntake?: {
    /** Largest accepted lead body in bytes. Default 65536 (64 KiB). */
    maxBodyBytes?: number;
    /** Replay window in either direction. Default 300000 (5 minutes). */
    toleranceMs?: number;
    /** How far in the future `whatsapp_consent.timestamp` may be (sender clock skew); later is refused with 422. Default 300000 (5 minutes). */
    consentClockSkewMs?: number;
    firstMessage?: FirstMessageOptions;
    /** How the worker settles first messages a crash left `queued` (see the core README, "Stuck first messages"). */
    firstMessageRecovery?: FirstMessageRecoveryOptions;
    /** Qualification fields per vertical. Default: real_estate → monthly_income (currency). */
    verticals?: VerticalDefinitions;
    /** The log of refused leads per connector (see the core README, "Refused leads and the Leads screen"). */
    refusals?: LeadRefusalOptions;
  };
  /** The OAuth 2.1 authorization server for MCP clients; off unless given (see the README's OAuth 2.1 section). */
  oauth?: OAuthOptions;
  /** The MCP server at `/mcp`: authentication, allowed origins, financial tools, canonical names. */
  mcp?: McpOptions;
  /**
   * The REST surface: `{ enabled: true }` serves every capability at `/v1/rest/{capability}` (API keys,
   * same scopes and runtime as MCP) and reports it in the catalog. Off by default.
   */
  rest?: RestOptions;
  /**
   * The A2A surface: `{ enabled: true }` serves an agent card at `/.well-known/agent-card.json` and
   * `SendMessage` at `/a2a` (API keys or OAuth tokens for `/a2a`, same runtime as MCP and REST) and
   * reports it in the catalog. Off by default.
   */
  a2a?: A2aOptions;
  /**
   * The web console at `<basePath>/console` (connectors, webhooks, API keys, members):
   * `vitrinaConsole({ signIn })` from `@vitrina/console`, whose hook says who the user is. Off
   * unless given. See the `@vitrina/console` README.
   */
  console?: ConsoleSurface;
  /** What the worker deletes or redacts, and when (see the core README, "Retention"); `false` turns it off. */
  retention?: RetentionOptions | false;
}
