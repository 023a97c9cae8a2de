import { sha256Hex } from "@vitrina/core/admin";

/**
 * How console logs name a member: `mbr_` and 16 hex digits of SHA-256 over the workspace and user
 * id. User ids are often email addresses, which don't belong in log lines; this is stable across
 * requests and restarts, so an operator can follow one member, and find a member's lines by
 * computing it (`printf '%s\n%s' "$WS" "$USER" | sha256sum | cut -c1-16`).
 */
export async function memberLogRef(workspaceId: string, userId: string): Promise<string> {
  return `mbr_${(await sha256Hex(`${workspaceId}\n${userId}`)).slice(0, 16)}`;
}
