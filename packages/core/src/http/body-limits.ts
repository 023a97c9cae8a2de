/**
 * How large a request body Vitrina reads on each kind of route, in one place (the lead intake, MCP
 * and WhatsApp webhook limits are options with their own defaults, owned by those features).
 */

/**
 * An admin or webhook API body: a handful of named fields (a URL, a name, a token, event types).
 * Four times the largest such body a client sends today; anything larger is not one of ours.
 */
export const API_BODY_LIMIT = 16 * 1024;

/**
 * A capability's input over REST or A2A: the same bound as a lead, the largest input an
 * integration sends (a quote's lines, a contact with its qualification).
 */
export const CAPABILITY_CALL_BODY_LIMIT = 64 * 1024;
