import { type FieldReason, SCOPES } from "@vitrina/core";
import { type ApiKeyAdmin, parseApiKeyIssue } from "@vitrina/core/admin";
import { canManage, field, formErrors } from "../console-form.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { csrfField, formatTime, secretOnce, screenResponse, dataTable } from "../console-page.js";
import { html } from "../html.js";

/** Settings → API keys: issue with a name and scopes (the key shown once), list, revoke. */
export function apiKeyScreens(deps: { apiKeys: ApiKeyAdmin }): ScreenRoute[] {
  const { apiKeys } = deps;

  async function page(
    screen: ScreenRequest,
    extra: {
      key?: string;
      notice?: string;
      errors?: FieldReason[];
      values?: { name?: string; scopes?: string[] };
    } = {},
  ) {
    const { caller, ctx } = screen;
    const keys = await apiKeys.list(caller);
    const manage = canManage(ctx);
    const rows = keys.data.map(
      (k) =>
        html`<tr>
          <td>${k.name}</td>
          <td><code>${k.prefix}…</code></td>
          <td>${k.scopes.map((s) => html`<code>${s}</code> `)}</td>
          <td>${formatTime(k.created_at)}</td>
          <td>${formatTime(k.last_used_at)}</td>
          <td>
            ${
              k.revoked_at !== null
                ? html`revoked ${formatTime(k.revoked_at)}`
                : manage
                  ? html`<form method="post" action="${ctx.root}/settings/api-keys/${encodeURIComponent(k.id)}/revoke">
                      ${csrfField(ctx)}<button class="danger" type="submit" aria-label="Revoke ${k.name}">
                        Revoke
                      </button>
                    </form>`
                  : "active"
            }
          </td>
        </tr>`,
    );
    const chosen = new Set(extra.values?.scopes ?? []);
    const issueForm = manage
      ? html`<form class="panel" method="post" action="${ctx.root}/settings/api-keys">
          ${csrfField(ctx)}
          <h2>Issue a key</h2>
          <label for="key-name">Name</label
          ><input id="key-name" name="name" type="text" required maxlength="120" value="${extra.values?.name ?? ""}" />
          <fieldset>
            <legend>Scopes</legend>
            ${SCOPES.map(
              (s) =>
                html`<label class="inline"
                  ><input type="checkbox" name="scopes" value="${s}" ${chosen.has(s) ? html` checked` : ""} />
                  <code>${s}</code></label
                >`,
            )}
          </fieldset>
          <div class="actions"><button type="submit">Issue key</button></div>
        </form>`
      : html`<p class="muted">Only an owner or admin can issue or revoke keys.</p>`;
    const body = html`${extra.key !== undefined && secretOnce("api-key", "New API key", extra.key)}
    ${
      keys.data.length === 0
        ? html`<p>
            No API keys yet. Keys authenticate the webhooks, admin and MCP APIs as <code>Authorization: Bearer …</code>.
          </p>`
        : dataTable("API keys of this workspace", ["Name", "Key", "Scopes", "Created", "Last used", "Status"], rows)
    }
    ${issueForm}`;
    return screenResponse(ctx, {
      title: "API keys",
      section: "api-keys",
      body,
      notice: extra.notice,
      errors: extra.errors,
    });
  }

  const issue: ScreenHandler = async (screen) => {
    const values = { name: field(screen.form!, "name"), scopes: screen.form!.getAll("scopes") };
    try {
      const { api_key, key } = await apiKeys.issue(screen.caller, parseApiKeyIssue(values));
      screen.logger.info({ apiKeyId: api_key.id, memberRef: screen.memberRef }, "console: API key issued");
      return page(screen, { key, notice: `Key "${api_key.name}" issued.` });
    } catch (error) {
      return page(screen, { errors: formErrors(error), values });
    }
  };

  const revoke: ScreenHandler = async (screen) => {
    const revoked = await apiKeys.revoke(screen.caller, screen.params.id!);
    screen.logger.info({ apiKeyId: revoked.id, memberRef: screen.memberRef }, "console: API key revoked");
    return page(screen, { notice: `Key "${revoked.name}" revoked: it is refused from the next request on.` });
  };

  return [
    { method: "GET", path: "/settings/api-keys", route: "console.api-keys", screen: (s) => page(s) },
    { method: "POST", path: "/settings/api-keys", route: "console.api-keys.issue", screen: issue },
    { method: "POST", path: "/settings/api-keys/:id/revoke", route: "console.api-keys.revoke", screen: revoke },
  ];
}
