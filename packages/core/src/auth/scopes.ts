/**
 * Scopes an API key (and later an OAuth token) can carry. The first five are the capability
 * scopes of the spec; `conversations:write` and `quotes:write` guard the MCP tools `send_message`
 * and `create_quote`; `webhooks:*` guard the subscription API.
 */
export const SCOPES = [
  "catalog:read",
  "customers:read",
  "customers:write",
  "conversations:read",
  "conversations:write",
  "inventory:read",
  "quotes:write",
  "webhooks:read",
  "webhooks:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
