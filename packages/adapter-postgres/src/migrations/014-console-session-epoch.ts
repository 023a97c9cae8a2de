/**
 * Console sign-out that ends the session: every membership gets a session epoch, replaced at
 * sign-out (`workspaces.endSessions`), which a console session must match. The default is volatile,
 * so adding the column rewrites `workspace_members` once, giving each existing row its own value;
 * the table holds a few rows per workspace. A new membership (also one removed and added again)
 * gets a new epoch, so a cookie from before is never honoured again.
 */
export const migration014 = (s: string): string[] => [
  `ALTER TABLE ${s}.workspace_members ADD COLUMN session_epoch text NOT NULL DEFAULT gen_random_uuid()::text`,
];
