import type { FieldReason } from "@vitrina/core";
import { type MemberAdmin, parseMemberAdd, parseMemberUpdate } from "@vitrina/core/admin";
import { canManage, field, formErrors } from "../console-form.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { csrfField, formatTime, htmlResponse, screenResponse, dataTable } from "../console-page.js";
import { html } from "../html.js";

const ROLES = ["owner", "admin", "member"] as const;

/** Settings → Members: list, add by email, change role, remove (never the last owner). */
export function memberScreens(deps: { members: MemberAdmin }): ScreenRoute[] {
  const { members } = deps;

  async function page(
    screen: ScreenRequest,
    extra: { notice?: string; errors?: FieldReason[]; values?: { email?: string; role?: string } } = {},
  ) {
    const { caller, ctx } = screen;
    const list = await members.list(caller);
    const manage = canManage(ctx);
    const roleSelect = (id: string, current: string) =>
      html`<select id="${id}" name="role">
        ${ROLES.map((r) => html`<option value="${r}" ${r === current ? html` selected` : ""}>${r}</option>`)}
      </select>`;
    const rows = list.data.map((m, i) => {
      const base = `${ctx.root}/settings/members/${encodeURIComponent(m.user_id)}`;
      const actions = manage
        ? html`<form class="inline-form" method="post" action="${base}/role">
              ${csrfField(ctx)}<label class="inline" for="role-${i}">Role</label>${roleSelect(`role-${i}`, m.role)}
              <button class="secondary" type="submit" aria-label="Change role of ${m.email ?? m.user_id}">
                Change
              </button>
            </form>
            <form class="inline-form" method="post" action="${base}/remove">
              ${csrfField(ctx)}<button class="danger" type="submit" aria-label="Remove ${m.email ?? m.user_id}">
                Remove
              </button>
            </form>`
        : "";
      return html`<tr>
        <td>${m.email ?? m.user_id}</td>
        <td>${m.role}</td>
        <td>${formatTime(m.added_at)}</td>
        <td>${actions}</td>
      </tr>`;
    });
    const addForm = manage
      ? html`<form class="panel" method="post" action="${ctx.root}/settings/members">
          ${csrfField(ctx)}
          <h2>Add a member</h2>
          <label for="member-email">Email</label
          ><input
            id="member-email"
            name="email"
            type="email"
            required
            maxlength="254"
            value="${extra.values?.email ?? ""}"
          />
          <label for="member-role">Role</label>${roleSelect("member-role", extra.values?.role ?? "member")}
          <p class="muted">
            Owners and admins manage connectors, keys, webhooks and members; members read. Only an owner may make an
            owner.
          </p>
          <div class="actions"><button type="submit">Add member</button></div>
        </form>`
      : html`<p class="muted">Only an owner or admin can change members.</p>`;
    const body = html`${dataTable("Members of this workspace", ["Email", "Role", "Added", ""], rows)} ${addForm}`;
    return screenResponse(ctx, {
      title: "Members",
      section: "members",
      body,
      notice: extra.notice,
      errors: extra.errors,
    });
  }

  const add: ScreenHandler = async (screen) => {
    const values = { email: field(screen.form!, "email"), role: field(screen.form!, "role") };
    try {
      const member = await members.add(screen.caller, parseMemberAdd(values));
      return page(screen, { notice: `${member.email} added as ${member.role}.` });
    } catch (error) {
      return page(screen, { errors: formErrors(error), values });
    }
  };

  const setRole: ScreenHandler = async (screen) => {
    try {
      const { role } = parseMemberUpdate({ role: field(screen.form!, "role") });
      const member = await members.setRole(screen.caller, screen.params.userId!, role);
      return page(screen, { notice: `${member.email} is now ${member.role}.` });
    } catch (error) {
      return page(screen, { errors: formErrors(error) });
    }
  };

  const remove: ScreenHandler = async (screen) => {
    try {
      await members.remove(screen.caller, screen.params.userId!);
      return page(screen, { notice: `${screen.params.userId!} removed.` });
    } catch (error) {
      return page(screen, { errors: formErrors(error) });
    }
  };

  return [
    { method: "GET", path: "/settings/members", route: "console.members", screen: (s) => page(s) },
    { method: "POST", path: "/settings/members", route: "console.members.add", screen: add },
    { method: "POST", path: "/settings/members/:userId/role", route: "console.members.role", screen: setRole },
    { method: "POST", path: "/settings/members/:userId/remove", route: "console.members.remove", screen: remove },
  ];
}
