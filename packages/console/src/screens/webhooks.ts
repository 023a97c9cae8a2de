import { EVENT_TYPES, type FieldReason, type SubscriptionView } from "@vitrina/core";
import { generateSecret, requireManager, type SendTestDelivery } from "@vitrina/core/admin";
import type { SubscriptionService } from "@vitrina/core/webhooks";
import { canManage, field, formErrors } from "../console-form.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { seeOther } from "../console-guard.js";
import { csrfField, formatTime, secretOnce, type ScreenContext, screenResponse, dataTable } from "../console-page.js";
import { html } from "../html.js";
import { deliveryHistory } from "./delivery-history.js";

/** What the endpoint page says after a change, by the code its redirect carries. */
/** The test event's kind: the `webhook.test` ping, or a realistic sample of one of the eight types. */
const testEventChoice = html`<label class="inline"
  >Event
  <select name="type">
    <option value="">webhook.test (ping)</option>
    ${EVENT_TYPES.map((type) => html`<option value="${type}">${type} (sample)</option>`)}
  </select></label
>`;

const NOTICES = {
  enabled: "Endpoint enabled.",
  disabled: "Endpoint disabled: no deliveries are attempted until it is enabled again.",
  test_sent: "Test event queued: it appears below once attempted (reload to see it).",
  resent: "Delivery queued again with a new 24-hour retry window.",
} as const;

type CreateValues = { url?: string; events?: string[]; signature_scheme?: string };

const SCHEME_LABELS = {
  vitrina: "Vitrina (Vitrina-Signature: t=…,v1=<hex>)",
  "standard-webhooks": "Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,<base64>)",
} as const;

/**
 * Webhooks: subscriptions (create with a generated secret shown once, enable/disable, delete),
 * their delivery history with every attempt, resend, and a test event. Members read; the
 * subscription service is workspace-scoped only, so the manager check is made here, before it.
 */
export function webhookScreens(deps: {
  webhooks: SubscriptionService;
  sendTestDelivery: SendTestDelivery;
}): ScreenRoute[] {
  const { webhooks } = deps;
  const detailPath = (ctx: ScreenContext, id: string) => `${ctx.root}/webhooks/${encodeURIComponent(id)}`;

  function createForm(ctx: ScreenContext, values: CreateValues) {
    if (!canManage(ctx)) return html`<p class="muted">Only an owner or admin can add webhook endpoints.</p>`;
    const chosen = new Set(values.events ?? []);
    const boxes = EVENT_TYPES.map(
      (type) =>
        html`<label class="inline"
          ><input type="checkbox" name="events" value="${type}" ${chosen.has(type) ? html` checked` : ""} />
          <code>${type}</code></label
        >`,
    );
    return html`<form class="panel" method="post" action="${ctx.root}/webhooks">
      ${csrfField(ctx)}
      <h2>Add an endpoint</h2>
      <label for="url">Endpoint URL</label
      ><input
        id="url"
        name="url"
        type="url"
        required
        maxlength="2048"
        placeholder="https://erp.example.com/hooks/vitrina"
        value="${values.url ?? ""}"
      />
      <fieldset>
        <legend>Event types</legend>
        ${boxes}
      </fieldset>
      <label for="signature_scheme">Signing scheme</label>
      <select id="signature_scheme" name="signature_scheme">
        <option value="vitrina" ${values.signature_scheme === "standard-webhooks" ? html`` : html` selected`}>
          Vitrina (Vitrina-Signature, verifiable with Stripe's libraries)
        </option>
        <option value="standard-webhooks" ${values.signature_scheme === "standard-webhooks" ? html` selected` : html``}>
          Standard Webhooks (webhook-signature)
        </option>
      </select>
      <p class="muted">A signing secret is generated and shown once.</p>
      <div class="actions"><button type="submit">Add endpoint</button></div>
    </form>`;
  }

  async function listPage(screen: ScreenRequest, extra: { errors?: FieldReason[]; values?: CreateValues } = {}) {
    const { caller, ctx } = screen;
    const subscriptions = await webhooks.list(caller.workspaceId);
    const rows = subscriptions.data.map(
      (s) =>
        html`<tr>
          <td><a href="${detailPath(ctx, s.id)}">${s.url}</a></td>
          <td>${s.events.map((e) => html`<code>${e}</code> `)}</td>
          <td>${s.enabled ? "enabled" : html`disabled<br /><span class="muted">${s.disabled_reason ?? ""}</span>`}</td>
          <td>${formatTime(s.created_at)}</td>
        </tr>`,
    );
    const body = html`${
      subscriptions.data.length === 0
        ? html`<p>
            No endpoints yet. Every event you choose is POSTed to the endpoint, signed, and retried for 24 hours.
          </p>`
        : dataTable("Webhook endpoints of this workspace", ["Endpoint", "Events", "Status", "Created"], rows)
    }
    ${createForm(ctx, extra.values ?? {})}`;
    return screenResponse(ctx, { title: "Webhooks", section: "webhooks", body, errors: extra.errors });
  }

  async function detailPage(
    screen: ScreenRequest,
    subscription: SubscriptionView,
    extra: { secret?: string; notice?: string; errors?: FieldReason[] } = {},
  ) {
    const { caller, ctx, url } = screen;
    const deliveries = await webhooks.deliveries(caller.workspaceId, subscription.id, {
      limit: 20,
      startingAfter: url.searchParams.get("starting_after") ?? undefined,
    });
    const action = (path: string, label: string, style = "secondary", extraFields = html``) =>
      html`<form class="inline-form" method="post" action="${detailPath(ctx, subscription.id)}/${path}">
        ${csrfField(ctx)}${extraFields}<button class="${style}" type="submit">${label}</button>
      </form>`;
    const manage = canManage(ctx)
      ? html`<div class="actions">
            ${subscription.enabled ? action("disable", "Disable") : action("enable", "Enable")}
            ${subscription.enabled && action("test", "Send test event", "secondary", testEventChoice)}
          </div>
          <form class="panel" method="post" action="${detailPath(ctx, subscription.id)}/delete">
            ${csrfField(ctx)}
            <h2>Delete this endpoint</h2>
            <p>Pending deliveries end as failed. This cannot be undone.</p>
            <label class="inline"
              ><input type="checkbox" name="confirm" value="yes" required /> I want to delete this endpoint</label
            >
            <div class="actions"><button class="danger" type="submit">Delete endpoint</button></div>
          </form>`
      : html`<p class="muted">Only an owner or admin can change this endpoint or resend deliveries.</p>`;
    const body = html`${extra.secret !== undefined && secretOnce("webhook-secret", "Signing secret", extra.secret)}
      <dl>
        <dt>Endpoint</dt>
        <dd><code>${subscription.url}</code></dd>
        <dt>Events</dt>
        <dd>${subscription.events.map((e) => html`<code>${e}</code> `)}</dd>
        <dt>Status</dt>
        <dd>
          ${subscription.enabled ? "enabled" : `disabled (${subscription.disabled_reason ?? "no reason recorded"})`}
        </dd>
        <dt>Signing scheme</dt>
        <dd>${SCHEME_LABELS[subscription.signature_scheme]}</dd>
        ${
          subscription.previous_secret_expires_at !== null &&
          html`<dt>Previous secret</dt>
            <dd>also signs until ${formatTime(subscription.previous_secret_expires_at)}</dd>`
        }
        <dt>Subscription id</dt>
        <dd><code>${subscription.id}</code></dd>
      </dl>
      ${manage}
      <h2>Delivery history</h2>
      ${deliveryHistory(ctx, subscription.id, deliveries.data, canManage(ctx))}
      ${deliveries.has_more && html`<p><a href="${detailPath(ctx, subscription.id)}?starting_after=${deliveries.data.at(-1)?.id ?? ""}">Older deliveries</a></p>`}`;
    return screenResponse(ctx, {
      title: "Webhook endpoint",
      section: "webhooks",
      body,
      notice: extra.notice,
      errors: extra.errors,
    });
  }

  const create: ScreenHandler = async (screen) => {
    const form = screen.form!;
    const scheme = field(form, "signature_scheme");
    const values = {
      url: field(form, "url"),
      events: form.getAll("events"),
      ...(scheme !== "" && { signature_scheme: scheme }),
    };
    try {
      requireManager(screen.caller, "add webhook endpoints");
      // A Standard Webhooks secret has its own format: the service generates that one.
      const given = scheme === "standard-webhooks" ? {} : { secret: generateSecret("whsec_", 24) };
      const created = await webhooks.create(
        screen.caller.workspaceId,
        { ...values, ...given },
        { logger: screen.logger },
      );
      const { secret: generated, ...subscription } = created;
      const secret = given.secret ?? generated!;
      screen.logger.info(
        { subscriptionId: subscription.id, memberRef: screen.memberRef },
        "console: webhook endpoint added",
      );
      return detailPage(screen, subscription, { secret, notice: "Endpoint added." });
    } catch (error) {
      return listPage(screen, { errors: formErrors(error), values });
    }
  };

  /**
   * A change, then back to the endpoint's page by a redirect (so a reload doesn't post it again)
   * with a notice named by code: the page never echoes text from the URL.
   */
  const change =
    (
      action: string,
      notice: keyof typeof NOTICES,
      run: (screen: ScreenRequest, id: string) => Promise<void>,
    ): ScreenHandler =>
    async (screen) => {
      requireManager(screen.caller, action);
      const id = screen.params.id!;
      try {
        await run(screen, id);
        return seeOther(`${detailPath(screen.ctx, id)}?notice=${notice}`);
      } catch (error) {
        const errors = formErrors(error);
        return detailPage(screen, await webhooks.get(screen.caller.workspaceId, id), { errors });
      }
    };

  const remove: ScreenHandler = async (screen) => {
    requireManager(screen.caller, "delete webhook endpoints");
    const id = screen.params.id!;
    if (screen.form!.get("confirm") !== "yes")
      return detailPage(screen, await webhooks.get(screen.caller.workspaceId, id), {
        errors: [{ field: "confirm", reason: "tick the box to confirm the deletion" }],
      });
    await webhooks.delete(screen.caller.workspaceId, id);
    screen.logger.info({ subscriptionId: id, memberRef: screen.memberRef }, "console: webhook endpoint deleted");
    return seeOther(`${screen.ctx.root}/webhooks`);
  };

  return [
    { method: "GET", path: "/webhooks", route: "console.webhooks", screen: (s) => listPage(s) },
    { method: "POST", path: "/webhooks", route: "console.webhooks.create", screen: create },
    {
      method: "GET",
      path: "/webhooks/:id",
      route: "console.webhooks.get",
      screen: async (s) =>
        detailPage(s, await webhooks.get(s.caller.workspaceId, s.params.id!), {
          notice: NOTICES[s.url.searchParams.get("notice") as keyof typeof NOTICES],
        }),
    },
    {
      method: "POST",
      path: "/webhooks/:id/enable",
      route: "console.webhooks.enable",
      screen: change("enable webhook endpoints", "enabled", async (s, id) => {
        await webhooks.update(s.caller.workspaceId, id, { enabled: true }, { logger: s.logger });
      }),
    },
    {
      method: "POST",
      path: "/webhooks/:id/disable",
      route: "console.webhooks.disable",
      screen: change("disable webhook endpoints", "disabled", async (s, id) => {
        await webhooks.update(s.caller.workspaceId, id, { enabled: false }, { logger: s.logger });
      }),
    },
    {
      method: "POST",
      path: "/webhooks/:id/test",
      route: "console.webhooks.test",
      screen: change("send test events", "test_sent", async (s, id) => {
        const type = field(s.form!, "type");
        await deps.sendTestDelivery(s.caller.workspaceId, id, type === "" ? undefined : type);
      }),
    },
    {
      method: "POST",
      path: "/webhooks/:id/deliveries/:deliveryId/resend",
      route: "console.webhooks.resend",
      screen: change("resend deliveries", "resent", async (s, id) => {
        await webhooks.resend(s.caller.workspaceId, id, s.params.deliveryId!);
      }),
    },
    { method: "POST", path: "/webhooks/:id/delete", route: "console.webhooks.delete", screen: remove },
  ];
}
