import { A2A_PATH, AGENT_CARD_PATH } from "./a2a/a2a-options.js";
import { resolveLeadRefusals, type LeadRefusalSettings } from "./leads/lead-refusals.js";
import { createAesGcmSecretBox } from "./crypto/aes-gcm-secret-box.js";
import type { HealthOptions } from "./http/health-routes.js";
import { resolveMount, type Mount } from "./http/mount.js";
import { defaultFirstMessage, type FirstMessageOptions } from "./leads/first-message.js";
import {
  checkLeadIntakeLimits,
  DEFAULT_LEAD_BODY_LIMIT,
  DEFAULT_LEAD_TOLERANCE_MS,
} from "./leads/lead-intake-limits.js";
import { defaultLogger } from "./logging/loggers.js";
import { MCP_PATH } from "./mcp/mcp-options.js";
import { checkOptionShapes } from "./options-shape.js";
import { systemClock, type Clock } from "./ports/clock.js";
import { randomUuid, type IdGenerator } from "./ports/ids.js";
import type { Logger } from "./ports/logger.js";
import type { SecretBox } from "./ports/secret-box.js";
import { REST_PATH } from "./rest/rest-options.js";
import type { VitrinaOptions } from "./vitrina-options.js";
import { eventHeaderNames } from "./webhooks/signing-schemes.js";

/** The lead-intake request headers a connector signs with (they follow `headerPrefix`). */
export interface LeadHeaderNames {
  connectorId: string;
  timestamp: string;
  signature: string;
}

/** The headers of an outgoing webhook delivery signed with Vitrina's scheme (they follow `headerPrefix`). */
export interface EventHeaderNames {
  signature: string;
  eventId: string;
}

/** `createVitrina`'s options with every default applied, checked once: the one place they are worked out. */
export interface ResolvedOptions {
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  secretBox: SecretBox;
  /** `basePath` and `publicUrl`: routes match under the prefix, and every URL Vitrina prints carries it. */
  mount: Mount;
  headerPrefix: string;
  leadHeaders: LeadHeaderNames;
  eventHeaders: EventHeaderNames;
  /** What the first WhatsApp message of a lead says; the intake, the worker and the webhook all use it. */
  firstMessage: FirstMessageOptions;
  leadIntake: { maxBodyBytes: number; toleranceMs: number };
  /** How refused leads are recorded per connector (ring size, retention, write rates). */
  leadRefusals: LeadRefusalSettings;
  /** Which optional surfaces are on; `health` holds its options when on, else null. */
  surfaces: { rest: boolean; a2a: boolean; oauth: boolean; health: HealthOptions | null };
  /**
   * Where each surface is reached: `publicUrl`'s origin (or nothing, so paths stay relative) + the
   * mount + the surface's path. `api` is that base alone (`/` at an unmounted, relative root).
   */
  urls: { api: string; mcp: string; rest: string | undefined; a2a: { url: string; cardUrl: string } | undefined };
}

/** Checks `options` and applies the defaults; throws `invalid_argument` naming the first bad field. */
export function resolveOptions(options: VitrinaOptions): ResolvedOptions {
  checkOptionShapes(options);
  checkLeadIntakeLimits(options.leadIntake);
  const prefix = options.headerPrefix ?? "Vitrina";
  const mount = resolveMount(options);
  const rest = options.rest?.enabled === true;
  const a2a = options.a2a?.enabled === true;
  // Printed URLs start with the public origin when one is configured; otherwise they stay relative.
  const base = `${mount.publicOrigin ?? ""}${mount.basePath}`;
  return {
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomUuid,
    logger: options.logger ?? defaultLogger,
    secretBox: typeof options.secretBox === "string" ? createAesGcmSecretBox(options.secretBox) : options.secretBox,
    mount,
    headerPrefix: prefix,
    leadHeaders: {
      connectorId: `X-${prefix}-Connector-Id`,
      timestamp: `X-${prefix}-Timestamp`,
      signature: `X-${prefix}-Signature`,
    },
    eventHeaders: eventHeaderNames(prefix),
    firstMessage: options.leadIntake?.firstMessage ?? defaultFirstMessage,
    leadIntake: {
      maxBodyBytes: options.leadIntake?.maxBodyBytes ?? DEFAULT_LEAD_BODY_LIMIT,
      toleranceMs: options.leadIntake?.toleranceMs ?? DEFAULT_LEAD_TOLERANCE_MS,
    },
    leadRefusals: resolveLeadRefusals(options.leadIntake?.refusals),
    surfaces: {
      rest,
      a2a,
      oauth: options.oauth !== undefined,
      health:
        options.health === undefined || options.health === false ? null : options.health === true ? {} : options.health,
    },
    urls: {
      api: base || "/",
      mcp: options.capabilities?.mcpUrl ?? `${base}${MCP_PATH}`,
      rest: rest ? `${base}${REST_PATH}` : undefined,
      // The card lives at the origin's well-known path whatever the mount (A2A discovery).
      a2a: a2a ? { url: `${base}${A2A_PATH}`, cardUrl: `${mount.publicOrigin ?? ""}${AGENT_CARD_PATH}` } : undefined,
    },
  };
}
