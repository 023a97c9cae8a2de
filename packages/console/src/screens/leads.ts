import { isVitrinaError, type FieldReason } from "@vitrina/core";
import {
  FIRST_MESSAGE_FILTERS,
  parseLeadListQuery,
  type ConnectorAdmin,
  type LeadAdmin,
  type WorkspaceLeadView,
} from "@vitrina/core/admin";
import { canManage, formErrors } from "../console-form.js";
import { seeOther, type ScreenHandler, type ScreenRequest, type ScreenRoute } from "../console-guard.js";
import { csrfField, dataTable, formatTime, screenResponse, type ScreenContext } from "../console-page.js";
import { html, type SafeHtml } from "../html.js";
import { contactPath } from "./whatsapp-format.js";

/** What the Leads screen says after a retry, by the code its redirect carries (never text from the URL). */
const NOTICES = {
  retried: "First message sent again: its new status is in the list.",
} as const;

const PAGE_SIZE = 25;

function select(id: string, label: string, options: Array<[value: string, text: string]>, chosen: string): SafeHtml {
  return html`<label for="${id}">${label}</label>
    <select id="${id}" name="${id}">
      ${options.map(([value, text]) => html`<option value="${value}" ${value === chosen ? html`selected` : ""}>${text}</option>`)}
    </select>`;
}

function retryForm(ctx: ScreenContext, lead: WorkspaceLeadView, query: string): SafeHtml | "" {
  if (lead.outbound_status !== "failed" || !canManage(ctx)) return "";
  return html`<form class="inline-form" method="post" action="${ctx.root}/leads/${lead.id}/retry-first-message">
    ${csrfField(ctx)}<input type="hidden" name="back" value="${query}" />
    <button class="secondary" type="submit" aria-label="Retry first message of lead ${lead.source_lead_id}">
      Retry first message
    </button>
  </form>`;
}

/**
 * Leads: every lead of the workspace across connectors, newest first, filtered by connector,
 * first-message status and duplicate, each linked to its contact and conversation; owners and
 * admins can send a failed first message again (through the same locked path as lead intake).
 */
export function leadScreens(deps: { leads: LeadAdmin; connectors: ConnectorAdmin }): ScreenRoute[] {
  async function listPage(screen: ScreenRequest, extra: { errors?: FieldReason[] } = {}) {
    const { caller, ctx, url } = screen;
    let query: ReturnType<typeof parseLeadListQuery>;
    let errors = extra.errors;
    try {
      query = parseLeadListQuery(url.searchParams);
    } catch (error) {
      errors = formErrors(error);
      query = { filter: {}, page: { limit: PAGE_SIZE } };
    }
    const [page, connectors] = await Promise.all([
      deps.leads.list(caller, query.filter, { ...query.page, limit: Math.min(query.page.limit, PAGE_SIZE) }),
      deps.connectors.list(caller, { limit: 100 }),
    ]);
    const connectorName = new Map(connectors.data.map((c) => [c.id, c.name]));
    const filters = new URLSearchParams();
    for (const name of ["connector_id", "first_message_status", "duplicate"]) {
      const value = url.searchParams.get(name);
      if (value !== null && value !== "") filters.set(name, value);
    }
    const rows = page.data.map(
      (l) =>
        html`<tr>
          <td>${formatTime(l.received_at)}</td>
          <td>${connectorName.get(l.connector_id) ?? html`<code>${l.connector_id}</code>`}</td>
          <td><code>${l.source_lead_id}</code></td>
          <td><a href="${contactPath(ctx, l.contact_id)}">Contact</a></td>
          <td>
            ${l.conversation_id === null ? html`<span class="muted">none</span>` : html`<a href="${ctx.root}/conversations/${l.conversation_id}">Conversation</a>`}
          </td>
          <td>${l.duplicate ? "yes" : "no"}</td>
          <td>
            ${l.outbound_status ?? "none"}${l.outbound_reason !== null && html`<br /><span class="muted">${l.outbound_reason}</span>`}
            ${retryForm(ctx, l, filters.toString())}
          </td>
        </tr>`,
    );
    const chosen = (name: string) => url.searchParams.get(name) ?? "";
    const filterForm = html`<form class="panel filters" method="get" action="${ctx.root}/leads">
      <h2>Filter</h2>
      ${select("connector_id", "Connector", [["", "Any connector"], ...connectors.data.map((c): [string, string] => [c.id, c.name])], chosen("connector_id"))}
      ${select(
        "first_message_status",
        "First message",
        [["", "Any status"], ...FIRST_MESSAGE_FILTERS.map((s): [string, string] => [s, s])],
        chosen("first_message_status"),
      )}
      ${select(
        "duplicate",
        "Duplicate",
        [
          ["", "Any"],
          ["true", "Repeats of a person"],
          ["false", "First lead of a person"],
        ],
        chosen("duplicate"),
      )}
      <div class="actions"><button type="submit">Apply filters</button></div>
    </form>`;
    const next = new URLSearchParams(filters);
    if (page.next_cursor !== null) next.set("starting_after", page.next_cursor);
    const notice = url.searchParams.get("notice");
    const body = html`${filterForm}
    ${
      page.data.length === 0
        ? html`<p>No leads match.</p>`
        : dataTable(
            "Leads of this workspace, newest first",
            ["Received", "Connector", "Source lead id", "Contact", "Conversation", "Duplicate", "First message"],
            rows,
          )
    }
    ${page.next_cursor !== null && html`<p><a href="${ctx.root}/leads?${next.toString()}">Next page</a></p>`}
    ${!canManage(ctx) && html`<p class="muted">Only an owner or admin can retry a failed first message.</p>`}`;
    return screenResponse(ctx, {
      title: "Leads",
      section: "leads",
      body,
      notice: notice !== null && Object.hasOwn(NOTICES, notice) ? NOTICES[notice as keyof typeof NOTICES] : undefined,
      errors,
    });
  }

  const list: ScreenHandler = (screen) => listPage(screen);

  const retry: ScreenHandler = async (screen) => {
    const back = new URLSearchParams(screen.form!.get("back") ?? "");
    const keep = new URLSearchParams();
    for (const name of ["connector_id", "first_message_status", "duplicate"]) {
      const value = back.get(name);
      if (value !== null) keep.set(name, value);
    }
    try {
      await deps.leads.retryFirstMessage(screen.caller, screen.params.id!, screen.logger);
    } catch (error) {
      // A retry the contact's state refuses (opted out, say) is shown on the list; 403 and 404 are pages.
      if (!isVitrinaError(error) || error.code !== "conflict") throw error;
      const url = new URL(screen.url);
      url.search = keep.toString();
      return listPage({ ...screen, url }, { errors: formErrors(error) });
    }
    keep.set("notice", "retried");
    screen.logger.info(
      { leadEventId: screen.params.id, memberRef: screen.memberRef },
      "console: first message retried",
    );
    return seeOther(`${screen.ctx.root}/leads?${keep.toString()}`);
  };

  return [
    { method: "GET", path: "/leads", screen: list, route: "console.leads" },
    { method: "POST", path: "/leads/:id/retry-first-message", screen: retry, route: "console.leads.retry" },
  ];
}
