import type { FieldReason } from "@vitrina/core";
import { requireManager } from "@vitrina/core/admin";
import {
  DEFAULT_GRAPH_API_VERSION,
  DEFAULT_GRAPH_BASE_URL,
  type WhatsAppChannelInput,
  type WhatsAppChannelService,
  type WhatsAppChannelView,
} from "@vitrina/core/whatsapp";
import { canManage, field, formErrors } from "../console-form.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { csrfField, formatTime, secretOnce, type ScreenContext, screenResponse } from "../console-page.js";
import { html } from "../html.js";

/** The form's fields are named as the service's input, so its refusals name them; the user reads the labels. */
const LABELS: Record<string, string> = {
  phoneNumberId: "Phone number id",
  accessToken: "Access token",
  appSecret: "App secret",
  verifyToken: "Verify token",
  graphBaseUrl: "Graph API base URL",
  apiVersion: "Graph API version",
  optOutKeywords: "Opt-out keywords",
  optInKeywords: "Opt-in keywords",
};

/** A refusal's field as the form labels it: `optOutKeywords.2` is the third opt-out keyword. */
function labelOf(field: string): string {
  const [name = "", index] = field.split(".");
  const label = LABELS[name];
  if (label === undefined) return field;
  return index === undefined ? label : `${label}, item ${Number(index) + 1}`;
}

/** What a refused form is drawn again with: never a secret. */
type Values = Partial<
  Record<"phoneNumberId" | "graphBaseUrl" | "apiVersion" | "optOutKeywords" | "optInKeywords", string>
>;

/** "stop, baja" or one per line; empty means the defaults (null), which is how the form shows them. */
const keywordsOf = (text: string) => {
  const words = text
    .split(/[\n,]/)
    .map((w) => w.trim())
    .filter((w) => w !== "");
  return words.length === 0 ? null : words;
};

const valuesOf = (channel: WhatsAppChannelView | null): Values =>
  channel === null
    ? {}
    : {
        phoneNumberId: channel.phone_number_id,
        graphBaseUrl: channel.graph_base_url,
        apiVersion: channel.api_version,
        optOutKeywords: channel.default_keywords.opt_out ? "" : channel.opt_out_keywords.join("\n"),
        optInKeywords: channel.default_keywords.opt_in ? "" : channel.opt_in_keywords.join("\n"),
      };

function channelDetails(channel: WhatsAppChannelView) {
  const keywords = (words: string[], defaults: boolean) =>
    html`${words.map((w) => html`<code>${w}</code> `)}${defaults && html`<span class="muted">(the defaults)</span>`}`;
  return html`<dl>
    <dt>Phone number id</dt>
    <dd><code>${channel.phone_number_id}</code></dd>
    <dt>Sends through</dt>
    <dd>
      ${
        channel.sends_through === "cloud_api"
          ? html`<code>cloud_api</code>: the Graph API, with the stored access token`
          : html`<code>messaging_transport</code>: the messaging transport given in code (no access token stored)`
      }
    </dd>
    <dt>Graph API base URL</dt>
    <dd><code>${channel.graph_base_url}</code></dd>
    <dt>Graph API version</dt>
    <dd><code>${channel.api_version}</code></dd>
    <dt>Opt-out keywords</dt>
    <dd>${keywords(channel.opt_out_keywords, channel.default_keywords.opt_out)}</dd>
    <dt>Opt-in keywords</dt>
    <dd>${keywords(channel.opt_in_keywords, channel.default_keywords.opt_in)}</dd>
    <dt>Last changed</dt>
    <dd>${formatTime(channel.updated_at)}</dd>
  </dl>`;
}

function channelForm(ctx: ScreenContext, exists: boolean, values: Values) {
  if (!canManage(ctx)) return html`<p class="muted">Only an owner or admin can change the WhatsApp channel.</p>`;
  const keep = exists ? "Leave empty to keep the stored one." : "";
  /** One labelled input; a password one is never filled in (secrets are not echoed back). */
  const input = (name: string, o: { type: string; value?: string; max?: number; required?: boolean; help?: string }) =>
    html`<label for="${name}">${LABELS[name]}</label
      ><input
        id="${name}"
        name="${name}"
        type="${o.type}"
        ${o.type === "password" ? html` autocomplete="off"` : html` value="${o.value ?? ""}"`}
        ${o.max !== undefined && html` maxlength="${o.max}"`}
        ${o.required === true && html` required`}
        ${o.help !== undefined && html` aria-describedby="${name}-help"`}
      />
      ${o.help !== undefined && html`<p id="${name}-help" class="muted">${o.help}</p>`}`;
  const keywordBox = (name: "optOutKeywords" | "optInKeywords") =>
    html`<label for="${name}">${LABELS[name]}</label
      ><textarea id="${name}" name="${name}" rows="3" aria-describedby="${name}-help">${values[name] ?? ""}</textarea>
      <p id="${name}-help" class="muted">One per line or comma-separated; leave empty for the defaults.</p>`;
  return html`<form class="panel" method="post" action="${ctx.root}/whatsapp">
    ${csrfField(ctx)}
    <h2>${exists ? "Change the channel" : "Set up the channel"}</h2>
    ${input("phoneNumberId", { type: "text", max: 64, value: values.phoneNumberId, required: true })}
    ${input("accessToken", {
      type: "password",
      help: `Sends through the Cloud API with it; without one, through the messaging transport given in code. ${keep}`,
    })}
    ${exists && html`<label class="inline"><input type="checkbox" name="removeAccessToken" value="yes" /> Remove the stored access token</label>`}
    ${input("appSecret", { type: "password", required: !exists, help: `The Meta app's secret: it signs the webhooks. ${keep}` })}
    ${input("verifyToken", {
      type: "password",
      help: exists ? "Leave empty to keep the current one." : "Leave empty to have one generated and shown once.",
    })}
    ${input("graphBaseUrl", { type: "url", max: 2048, value: values.graphBaseUrl ?? DEFAULT_GRAPH_BASE_URL })}
    ${input("apiVersion", { type: "text", max: 16, value: values.apiVersion ?? DEFAULT_GRAPH_API_VERSION })}
    ${keywordBox("optOutKeywords")} ${keywordBox("optInKeywords")}
    <div class="actions"><button type="submit">Save channel</button></div>
  </form>`;
}

/**
 * The workspace's WhatsApp channel: what it is, the webhook callback URL for the Meta dashboard,
 * and a form to set it (owners and admins). Secrets go in and never come back out; a verify token
 * Vitrina generates is shown once, on the page that saved it.
 */
export function whatsAppChannelScreens(deps: {
  channels: WhatsAppChannelService;
  callbackUrl: (ctx: ScreenContext) => string;
}): ScreenRoute[] {
  const { channels } = deps;

  async function page(
    screen: ScreenRequest,
    extra: { notice?: string; errors?: FieldReason[]; values?: Values; verifyToken?: string | null } = {},
  ) {
    const { caller, ctx } = screen;
    const channel = await channels.get(caller.workspaceId);
    const body = html`${
        extra.verifyToken != null &&
        html`${secretOnce("verify-token", "Verify token", extra.verifyToken)}
          <p>Paste it, with the callback URL below, into the Meta dashboard (WhatsApp → Configuration → Webhook).</p>`
      }
      ${channel === null ? html`<p id="no-channel">No WhatsApp channel yet: this workspace receives nothing from WhatsApp.</p>` : channelDetails(channel)}
      <h2>Webhook callback URL</h2>
      <p>
        <code id="callback-url">${deps.callbackUrl(ctx)}</code
        ><button type="button" class="copy secondary" data-copy="callback-url" hidden>Copy</button>
      </p>
      ${channelForm(ctx, channel !== null, extra.values ?? valuesOf(channel))}`;
    const errors = extra.errors?.map((e) => ({ ...e, field: labelOf(e.field) }));
    return screenResponse(ctx, { title: "WhatsApp channel", section: "whatsapp", body, notice: extra.notice, errors });
  }

  const save: ScreenHandler = async (screen) => {
    requireManager(screen.caller, "change the WhatsApp channel");
    const form = screen.form!;
    const values: Values = {};
    for (const name of ["phoneNumberId", "graphBaseUrl", "apiVersion", "optOutKeywords", "optInKeywords"] as const)
      values[name] = field(form, name);
    const secret = (name: string) => (field(form, name) === "" ? undefined : field(form, name));
    const input: WhatsAppChannelInput = {
      workspaceId: screen.caller.workspaceId,
      phoneNumberId: values.phoneNumberId!,
      accessToken: form.get("removeAccessToken") === "yes" ? null : secret("accessToken"),
      appSecret: secret("appSecret"),
      verifyToken: secret("verifyToken"),
      graphBaseUrl: values.graphBaseUrl || undefined,
      apiVersion: values.apiVersion || undefined,
      optOutKeywords: keywordsOf(values.optOutKeywords!),
      optInKeywords: keywordsOf(values.optInKeywords!),
    };
    try {
      const { verifyToken } = await channels.put(input);
      screen.logger.info({ memberRef: screen.memberRef }, "console: WhatsApp channel saved");
      return page(screen, { notice: "Channel saved.", verifyToken });
    } catch (error) {
      return page(screen, { errors: formErrors(error), values });
    }
  };

  return [
    { method: "GET", path: "/whatsapp", route: "console.whatsapp", screen: (s) => page(s) },
    { method: "POST", path: "/whatsapp", route: "console.whatsapp.save", screen: save },
  ];
}
