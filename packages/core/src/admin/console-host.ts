import type { WhatsAppChannelService } from "../channels/whatsapp/channel-service.js";
import type { LeadAdmin } from "./lead-admin.js";
import type { ContactService } from "../contacts/contact-service.js";
import type { Mount } from "../http/mount.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { StorageRepositories } from "../ports/storage.js";
import type { PrivacyService } from "../privacy/privacy-service.js";
import type { Surface } from "../surface.js";
import type { SubscriptionService } from "../webhooks/subscription-service.js";
import type { SendTestDelivery } from "../webhooks/test-delivery.js";
import type { ApiKeyAdmin } from "./api-key-admin.js";
import type { ConnectorAdmin } from "./connector-admin.js";
import type { MemberAdmin } from "./member-admin.js";

/**
 * What `createVitrina` hands the web console when it mounts it: the same admin services the admin
 * API serves, so a role check or a validation rule lives in core once for both, and the console
 * (`@vitrina/console`) only renders and reads forms.
 */
export interface ConsoleHost {
  /** The storage the services use (through the outbox, so commits wake the workers); the console only reads it. */
  storage: StorageRepositories;
  /** Seals the console's session cookies with the same key as connector secrets. */
  secretBox: SecretBox;
  clock: Clock;
  logger: Logger;
  /** Where Vitrina is mounted: the console lives at `<basePath>/console`. */
  mount: Mount;
  /** The lead-signing header names (`headerPrefix`), shown in the integration snippets. */
  headerNames: { connectorId: string; timestamp: string; signature: string };
  connectors: ConnectorAdmin;
  apiKeys: ApiKeyAdmin;
  members: MemberAdmin;
  webhooks: SubscriptionService;
  sendTestDelivery: SendTestDelivery;
  contacts: ContactService;
  privacy: PrivacyService;
  whatsappChannels: WhatsAppChannelService;
  /** Every lead, a connector's refused leads, and the retry of a failed first message. */
  leads: LeadAdmin;
}

/** `createVitrina({ console })`: made by `vitrinaConsole({ signIn })` from `@vitrina/console`. */
export interface ConsoleSurface {
  mount(host: ConsoleHost): Surface;
}
