import type { FieldReason } from "@vitrina/core";
import { type ConnectorAdmin, type ConnectorView, type LeadAdmin, parseConnectorCreate } from "@vitrina/core/admin";
import { canManage, field, formErrors } from "../console-form.js";
import { csrfField, formatTime, secretOnce, type ScreenContext, screenResponse, dataTable } from "../console-page.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { html } from "../html.js";
import { leadSnippets } from "./lead-snippets.js";
import { refusalsSection } from "./lead-refusals.js";

/** Integrations → connectors: list, create (secret once), the connector screen, rotate, recent leads. */
export function integrationScreens(deps: {
  connectors: ConnectorAdmin;
  intakeUrl: (ctx: ScreenContext) => string;
  headerNames: { connectorId: string; timestamp: string; signature: string };
  leads?: LeadAdmin;
}): ScreenRoute[] {
  const { connectors } = deps;

  function createForm(ctx: ScreenContext, values: { name?: string; system?: string } = {}) {
    if (!canManage(ctx)) return html`<p class="muted">Only an owner or admin can create connectors.</p>`;
    return html`<form class="panel" method="post" action="${ctx.root}/integrations">
      ${csrfField(ctx)}
      <h2>New connector</h2>
      <label for="name">Visible name</label
      ><input id="name" name="name" type="text" required maxlength="120" value="${values.name ?? ""}" />
      <label for="system">System identifier</label
      ><input
        id="system"
        name="system"
        type="text"
        required
        maxlength="64"
        pattern="[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}"
        aria-describedby="system-help"
        value="${values.system ?? ""}"
      />
      <p id="system-help" class="muted">
        The sending system, e.g. <code>hubspot</code> or <code>web-form</code>: letters, digits, ".", "_" or "-".
      </p>
      <div class="actions"><button type="submit">Create connector</button></div>
    </form>`;
  }

  async function listPage(
    screen: ScreenRequest,
    extra: { errors?: FieldReason[]; values?: { name?: string; system?: string } } = {},
  ) {
    const { caller, ctx, url } = screen;
    const page = await connectors.list(caller, {
      limit: 50,
      startingAfter: url.searchParams.get("starting_after") ?? undefined,
    });
    const rows = page.data.map(
      (c) =>
        html`<tr>
          <td><a href="${ctx.root}/integrations/${c.id}">${c.name}</a></td>
          <td><code>${c.system}</code></td>
          <td>${formatTime(c.created_at)}</td>
          <td>${formatTime(c.rotated_at)}</td>
        </tr>`,
    );
    const body = html`${
      page.data.length === 0
        ? html`<p>No connectors yet. A connector is one sending system (a CRM, a form) with its own signing secret.</p>`
        : dataTable("Connectors of this workspace", ["Name", "System", "Created", "Secret rotated"], rows)
    }
    ${page.next_cursor !== null && html`<p><a href="${ctx.root}/integrations?starting_after=${page.next_cursor}">Next page</a></p>`}
    ${createForm(ctx, extra.values)}`;
    return screenResponse(ctx, { title: "Integrations", section: "integrations", body, errors: extra.errors });
  }

  async function connectorPage(
    screen: ScreenRequest,
    connector: ConnectorView,
    shown: { secret: string; notice: string } | null,
    errors?: FieldReason[],
  ) {
    const { caller, ctx } = screen;
    const intakeUrl = deps.intakeUrl(ctx);
    const leads = await connectors.leads(caller, connector.id, { limit: 20 });
    const refusals = deps.leads === undefined ? null : await deps.leads.refusals(caller, connector.id);
    const leadRows = leads.data.map(
      (l) =>
        html`<tr>
          <td>${formatTime(l.received_at)}</td>
          <td><code>${l.source_lead_id}</code></td>
          <td>${l.duplicate ? "yes" : "no"}</td>
          <td>
            ${l.outbound_status ?? "—"}${l.outbound_reason !== null && html`<br /><span class="muted">${l.outbound_reason}</span>`}
          </td>
          <td>
            ${
              l.rejected_qualification.length === 0
                ? "—"
                : l.rejected_qualification.map((r) => html`<code>${r.field}</code>: ${r.reason}<br />`)
            }
          </td>
        </tr>`,
    );
    const rotate = canManage(ctx)
      ? html`<form class="panel" method="post" action="${ctx.root}/integrations/${connector.id}/rotate">
          ${csrfField(ctx)}
          <h2>Rotate the secret</h2>
          <p>A new secret is shown once. The current secret stops working at once: update every sender.</p>
          <label class="inline"
            ><input type="checkbox" name="confirm" value="yes" required /> I understand the current secret stops working
            now</label
          >
          <div class="actions"><button class="danger" type="submit">Rotate secret</button></div>
        </form>`
      : html`<p class="muted">Only an owner or admin can rotate this connector's secret.</p>`;
    const body = html`${shown !== null && secretOnce("connector-secret", "Connector secret", shown.secret)}
      <dl>
        <dt>System</dt>
        <dd><code>${connector.system}</code></dd>
        <dt>Connector id</dt>
        <dd><code id="connector-id">${connector.id}</code></dd>
        <dt>Created</dt>
        <dd>${formatTime(connector.created_at)}</dd>
        <dt>Secret rotated</dt>
        <dd>${formatTime(connector.rotated_at)}</dd>
      </dl>
      <h2>Lead-intake endpoint</h2>
      <p>Senders POST signed leads to:</p>
      <p>
        <code id="intake-url">${intakeUrl}</code
        ><button type="button" class="copy secondary" data-copy="intake-url" hidden>Copy</button>
      </p>
      ${leadSnippets({ intakeUrl, connectorId: connector.id, secret: shown?.secret ?? null, headerNames: deps.headerNames })}
      <h2>Recent leads</h2>
      ${
        leads.data.length === 0
          ? html`<p>No leads received yet.</p>`
          : dataTable(
              "Leads of this connector, newest first",
              ["Received", "Source lead id", "Duplicate", "First message", "Rejected qualification"],
              leadRows,
            )
      }
      ${refusals !== null && refusalsSection(refusals.data, deps.leads!.refusalsKept)} ${rotate}`;
    return screenResponse(ctx, {
      title: `Connector: ${connector.name}`,
      section: "integrations",
      body,
      notice: shown?.notice,
      errors,
    });
  }

  const list: ScreenHandler = (screen) => listPage(screen);

  const create: ScreenHandler = async (screen) => {
    const form = screen.form!;
    const values = { name: field(form, "name"), system: field(form, "system") };
    try {
      const { connector, secret } = await connectors.create(screen.caller, parseConnectorCreate(values));
      screen.logger.info({ connectorId: connector.id, memberRef: screen.memberRef }, "console: connector created");
      return connectorPage(screen, connector, { secret, notice: "Connector created." });
    } catch (error) {
      return listPage(screen, { errors: formErrors(error), values });
    }
  };

  const show: ScreenHandler = async (screen) =>
    connectorPage(screen, await connectors.get(screen.caller, screen.params.id!), null);

  const rotate: ScreenHandler = async (screen) => {
    const id = screen.params.id!;
    if (screen.form!.get("confirm") !== "yes") {
      const connector = await connectors.get(screen.caller, id);
      return connectorPage(screen, connector, null, [
        { field: "confirm", reason: "tick the box to confirm the current secret stops working" },
      ]);
    }
    const { connector, secret } = await connectors.rotate(screen.caller, id);
    screen.logger.info({ connectorId: id, memberRef: screen.memberRef }, "console: connector secret rotated");
    return connectorPage(screen, connector, {
      secret,
      notice: "Secret rotated: the previous secret no longer verifies.",
    });
  };

  return [
    { method: "GET", path: "/integrations", screen: list, route: "console.integrations" },
    { method: "POST", path: "/integrations", screen: create, route: "console.integrations.create" },
    { method: "GET", path: "/integrations/:id", screen: show, route: "console.integrations.get" },
    { method: "POST", path: "/integrations/:id/rotate", screen: rotate, route: "console.integrations.rotate" },
  ];
}
