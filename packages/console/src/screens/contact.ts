import type { Clock, ConsentLedgerEntry, ContactRecord, FieldReason } from "@vitrina/core";
import { type ContactService, type PrivacyService, requireManager } from "@vitrina/core/admin";
import { canManage, field, formErrors } from "../console-form.js";
import type { ScreenHandler, ScreenRequest, ScreenRoute } from "../console-guard.js";
import { seeOther } from "../console-guard.js";
import { csrfField, dataTable, formatTime, type ScreenContext, screenResponse } from "../console-page.js";
import { html } from "../html.js";
import { contactLabel, contactPath, evidenceSummary, serviceWindowLine } from "./whatsapp-format.js";

/** The ledger rows the page shows; the full history is in the admin API. */
const LEDGER_ROWS = 50;

/** What the contact page says after a change, by the code its redirect carries (never text from the URL). */
const NOTICES = {
  opted_out: "Opt-out recorded: no WhatsApp message is sent to this contact any more.",
  erased: "Erased: this person's data was removed or redacted everywhere Vitrina stored it.",
} as const;

function consentState(contact: ContactRecord, now: Date) {
  const consent = contact.whatsappConsent;
  return html`<dl>
    <dt>State</dt>
    <dd id="consent-state">
      ${
        contact.whatsappOptedOutAt !== null
          ? html`<span class="status-bad">Opted out</span> since ${formatTime(contact.whatsappOptedOutAt)}: no WhatsApp
              message is sent until the contact opts back in on the channel.`
          : consent?.granted === true
            ? html`<span class="status-ok">Consent granted</span>`
            : html`No consent on record`
      }
    </dd>
    <dt>Latest consent evidence</dt>
    <dd>
      ${
        consent === null
          ? html`<span class="muted">none received</span>`
          : html`${consent.granted ? "granted" : "withdrawn"} at ${formatTime(consent.timestamp)}
              ${consent.source !== null && html`<br />source: ${consent.source}`}
              ${consent.purpose !== null && html`<br />purpose: ${consent.purpose}`} <br /><span class="muted"
                >from lead event <code>${consent.leadEventId}</code> of connector <code>${consent.connectorId}</code>,
                recorded ${formatTime(consent.recordedAt)}</span
              >`
      }
    </dd>
    <dt>Opted out at</dt>
    <dd>${formatTime(contact.whatsappOptedOutAt)}</dd>
    <dt>Resumed at</dt>
    <dd>${formatTime(contact.whatsappResumedAt ?? null)}</dd>
    <dt>24-hour service window</dt>
    <dd>${serviceWindowLine(contact, now)}</dd>
  </dl>`;
}

function ledgerTable(entries: ConsentLedgerEntry[]) {
  if (entries.length === 0) return html`<p>No consent changes recorded yet.</p>`;
  const rows = entries.map(
    (e) =>
      html`<tr>
        <td>${e.kind.replace(/_/g, " ")}</td>
        <td>${e.source}</td>
        <td>${e.sourceRef === null ? "—" : html`<code>${e.sourceRef}</code>`}</td>
        <td>${evidenceSummary(e.evidence)}</td>
        <td>${formatTime(e.occurredAt)}</td>
        <td>${formatTime(e.recordedAt)}</td>
      </tr>`,
  );
  return dataTable(
    "Consent ledger, newest first",
    ["Change", "Source", "Source ref", "Evidence", "Occurred", "Recorded"],
    rows,
  );
}

function optOutForm(ctx: ScreenContext, contact: ContactRecord, note: string) {
  if (!canManage(ctx)) return html`<p class="muted">Only an owner or admin can record an opt-out.</p>`;
  if (contact.whatsappOptedOutAt !== null) return "";
  return html`<form class="panel" method="post" action="${contactPath(ctx, contact.id)}/opt-out">
    ${csrfField(ctx)}
    <h2>Opt out on request</h2>
    <p>
      For a person who asked outside WhatsApp (by phone, by email, in person) to get no more messages. It stops every
      message at once and is kept in the ledger under your user id. Only the person can opt back in, on WhatsApp.
    </p>
    <label for="note">Note (optional)</label>
    <textarea id="note" name="note" maxlength="500" rows="2" aria-describedby="note-help">${note}</textarea>
    <p id="note-help" class="muted">How and when they asked, e.g. "phoned on 3 May". At most 500 characters.</p>
    <div class="actions"><button class="danger" type="submit">Opt out on request</button></div>
  </form>`;
}

/** The data request panel: download everything held about the person, or erase them (owners and admins). */
function dataRequestPanel(ctx: ScreenContext, contact: ContactRecord) {
  if (!canManage(ctx)) return html`<p class="muted">Only an owner or admin can export or erase a person's data.</p>`;
  const path = contactPath(ctx, contact.id);
  return html`<section class="panel" aria-labelledby="data-request">
    <h2 id="data-request">Data request</h2>
    <p>
      When this person asks what Vitrina holds about them, download it as one JSON file: the contact, consent ledger,
      leads with their payloads, opportunities, conversations and messages, and the events that named them with their
      webhook deliveries.
    </p>
    <p><a id="export-link" href="${path}/export" download>Download this person's data (JSON)</a></p>
    <form method="post" action="${path}/erase">
      ${csrfField(ctx)}
      <p>
        Erasing removes or redacts their personal data everywhere Vitrina stored it; counts of what happened stay. It
        can't be undone. Webhook receivers keep the copies they already received.
      </p>
      <label class="inline"
        ><input type="checkbox" name="confirm" value="yes" required /> I understand this can't be undone</label
      >
      <div class="actions"><button class="danger" type="submit">Erase this person</button></div>
    </form>
  </section>`;
}

/**
 * A contact: details, WhatsApp consent state, the consent ledger, "opt out on request", and a data
 * request (download everything, erase) for owners and admins.
 */
export function contactScreens(deps: {
  contacts: ContactService;
  privacy: PrivacyService;
  clock: Clock;
}): ScreenRoute[] {
  const { contacts, privacy } = deps;

  async function page(screen: ScreenRequest, extra: { notice?: string; errors?: FieldReason[]; note?: string } = {}) {
    const { caller, ctx, params } = screen;
    const contact = await contacts.get(caller.workspaceId, params.id!);
    const ledger = await contacts.consentLedger(caller.workspaceId, contact.id, { limit: LEDGER_ROWS });
    const body = html`<dl>
        <dt>Name</dt>
        <dd>${contact.name ?? "—"}</dd>
        <dt>Phone</dt>
        <dd>${contact.phoneE164 ?? "—"}</dd>
        <dt>Email</dt>
        <dd>${contact.email ?? "—"}</dd>
        <dt>WhatsApp user id</dt>
        <dd>${contact.whatsappUserId === undefined ? "—" : html`<code>${contact.whatsappUserId}</code>`}</dd>
        <dt>Contact id</dt>
        <dd><code>${contact.id}</code></dd>
      </dl>
      <h2>WhatsApp consent</h2>
      ${consentState(contact, deps.clock.now())}
      <h2>Consent ledger</h2>
      ${ledgerTable(ledger)} ${optOutForm(ctx, contact, extra.note ?? "")} ${dataRequestPanel(ctx, contact)}
      <p><a href="${ctx.root}/conversations">All conversations</a></p>`;
    return screenResponse(ctx, {
      title: `Contact: ${contactLabel(contact)}`,
      section: "conversations",
      body,
      notice: extra.notice,
      errors: extra.errors,
    });
  }

  const optOut: ScreenHandler = async (screen) => {
    requireManager(screen.caller, "record an opt-out");
    const note = field(screen.form!, "note");
    const contactId = screen.params.id!;
    try {
      await contacts.optOutContact({
        workspaceId: screen.caller.workspaceId,
        contactId,
        source: "console",
        sourceRef: screen.ctx.userId,
        ...(note !== "" && { note }),
      });
    } catch (error) {
      return page(screen, { errors: formErrors(error), note });
    }
    screen.logger.info({ contactId, memberRef: screen.memberRef }, "console: contact opted out on request");
    return seeOther(`${contactPath(screen.ctx, contactId)}?notice=opted_out`);
  };

  const exportData: ScreenHandler = async (screen) => {
    requireManager(screen.caller, "export a person's data");
    const contactId = screen.params.id!;
    const body = await privacy.exportContact(screen.caller.workspaceId, contactId);
    screen.logger.info({ contactId, memberRef: screen.memberRef }, "console: contact data exported");
    return new Response(body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="contact-${encodeURIComponent(contactId)}.json"`,
        "cache-control": "no-store",
      },
    });
  };

  const erase: ScreenHandler = async (screen) => {
    requireManager(screen.caller, "erase a person's data");
    const contactId = screen.params.id!;
    if (field(screen.form!, "confirm") !== "yes")
      return page(screen, { errors: [{ field: "confirm", reason: "tick the box to confirm the erasure" }] });
    const requestedBy = `console:${screen.ctx.userId}`;
    await privacy.eraseContact({ workspaceId: screen.caller.workspaceId, contactId, requestedBy });
    return seeOther(`${contactPath(screen.ctx, contactId)}?notice=erased`);
  };

  return [
    {
      method: "GET",
      path: "/contacts/:id",
      route: "console.contacts.get",
      screen: (s) => page(s, { notice: NOTICES[s.url.searchParams.get("notice") as keyof typeof NOTICES] }),
    },
    { method: "POST", path: "/contacts/:id/opt-out", route: "console.contacts.opt_out", screen: optOut },
    { method: "GET", path: "/contacts/:id/export", route: "console.contacts.export", screen: exportData },
    { method: "POST", path: "/contacts/:id/erase", route: "console.contacts.erase", screen: erase },
  ];
}
