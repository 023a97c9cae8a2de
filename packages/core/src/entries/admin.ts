// @vitrina/core/admin: the seam between core and the web console (`@vitrina/console`), first-party
// and versioned with core: what `createVitrina` hands a console surface, and the admin rules (who
// may manage, how a form's fields are parsed) the console shares with the admin API. Apps don't
// need it; a console of your own may use it with the same care as core's internals.
export type { Surface } from "../surface.js";
export type { ConsoleHost, ConsoleSurface } from "../admin/console-host.js";
export { resolveAdminCaller, requireManager, type AdminCaller } from "../admin/admin-caller.js";
export { parseApiKeyIssue, parseConnectorCreate, parseMemberAdd, parseMemberUpdate } from "../admin/admin-input.js";
export { LEAD_INTAKE_PATH } from "../leads/lead-intake-route.js";
export type { ApiKeyAdmin } from "../admin/api-key-admin.js";
export type { ConnectorAdmin } from "../admin/connector-admin.js";
export type { MemberAdmin } from "../admin/member-admin.js";
export type { ConnectorView } from "../admin/admin-views.js";
export type { LeadAdmin } from "../admin/lead-admin.js";
export type { LeadRefusalView, WorkspaceLeadView } from "../admin/lead-views.js";
export { FIRST_MESSAGE_FILTERS, parseLeadListQuery } from "../admin/lead-list-input.js";
export type { ContactService } from "../contacts/contact-service.js";
export type { PrivacyService } from "../privacy/privacy-service.js";
export type { SendTestDelivery } from "../webhooks/test-delivery.js";
export type { Mount } from "../http/mount.js";
export type { RequestContext } from "../http/request-context.js";
// Session cookies and one-time secrets: the same primitives as API keys and webhook signatures.
export { generateSecret, sha256Hex } from "../crypto/random.js";
export { bytesToBase64Url } from "../crypto/encoding.js";
export { timingSafeEqualStrings } from "../crypto/hmac.js";
