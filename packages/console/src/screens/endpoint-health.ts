import type { EndpointHealthView } from "@vitrina/core/webhooks";
import { canManage, field } from "../console-form.js";
import { csrfField, formatTime, type ScreenContext } from "../console-page.js";
import { html } from "../html.js";

/** `0.975` as `97.5 %`; no attempts as a dash. */
const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 1000) / 10} %`);

/** The last attempt in a few words: `HTTP 500`, `no response (ECONNREFUSED…)`, `HTTP 204`. */
export function lastAttemptText(h: Pick<EndpointHealthView, "last_attempt">): string {
  const last = h.last_attempt;
  if (last === null) return "never attempted";
  const outcome = last.status_code === null ? `no response (${last.error ?? "unknown"})` : `HTTP ${last.status_code}`;
  return `${outcome} at ${formatTime(last.at)}`;
}

/** The Webhooks list's health cells: state (with failing-since or the disabled reason), success rate, last attempt. */
export function healthCells(h: EndpointHealthView | undefined) {
  if (h === undefined)
    return html`<td>—</td>
      <td>—</td>
      <td>—</td>`;
  const state =
    h.state === "disabled"
      ? html`<span class="status-bad">disabled</span><br /><span class="muted">${h.disabled_reason ?? ""}</span>`
      : h.state === "failing"
        ? html`<span class="status-bad">failing</span><br /><span class="muted"
              >since ${formatTime(h.failing_since)}</span
            >`
        : h.state === "healthy"
          ? html`<span class="status-ok">healthy</span>`
          : html`<span class="muted">no attempts yet</span>`;
  return html`<td>${state}</td>
    <td>${percent(h.success_rate)}<br /><span class="muted">of ${h.attempts} attempts</span></td>
    <td>${lastAttemptText(h)}</td>`;
}

/** The endpoint page's health panel: the same figures, with when a failing endpoint will be disabled. */
export function healthPanel(h: EndpointHealthView) {
  return html`<section class="panel" aria-labelledby="health-heading">
    <h2 id="health-heading">Health</h2>
    <dl>
      <dt>Success rate, last ${h.window.hours} hours</dt>
      <dd>${percent(h.success_rate)} (${h.succeeded} of ${h.attempts} attempts succeeded)</dd>
      <dt>Last attempt</dt>
      <dd>${lastAttemptText(h)}</dd>
      <dt>Failing since</dt>
      <dd>${h.failing_since === null ? "not failing" : formatTime(h.failing_since)}</dd>
      ${
        h.auto_disable_at !== null &&
        html`<dt>Disabled automatically</dt>
          <dd>at ${formatTime(h.auto_disable_at)} if every attempt keeps failing</dd>`
      }
    </dl>
  </section>`;
}

/** "Recover failed deliveries since…": owners and admins, enabled endpoints only. */
export function recoverForm(ctx: ScreenContext, action: string, enabled: boolean) {
  if (!canManage(ctx) || !enabled) return "";
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);
  return html`<form class="panel" method="post" action="${action}">
    ${csrfField(ctx)}
    <h2>Recover failed deliveries</h2>
    <p>Resends every failed delivery created since the time below (UTC), oldest first, up to the limit.</p>
    <label for="recover-since">Since (UTC)</label>
    <input id="recover-since" name="since" type="datetime-local" required value="${yesterday}" />
    <label for="recover-limit">At most</label>
    <input id="recover-limit" name="limit" type="number" min="1" max="1000" value="100" />
    <div class="actions"><button type="submit">Recover failed deliveries</button></div>
  </form>`;
}

/** The form's `since` (a `datetime-local` value, read as UTC) and `limit` as the service takes them. */
export function recoveryFromForm(form: URLSearchParams): { since: string; limit?: number } {
  const since = field(form, "since");
  const limit = field(form, "limit");
  return {
    since: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(since) ? `${since}:00Z` : since,
    ...(limit !== "" && { limit: Number(limit) }),
  };
}

/** What the page says after a recovery: how many were requeued, and whether more are left. */
export function recoveryNotice(requeued: number, more: boolean): string {
  const base = `${requeued} failed ${requeued === 1 ? "delivery" : "deliveries"} queued again with a new 24-hour retry window.`;
  return more ? `${base} More remain: recover again.` : base;
}
