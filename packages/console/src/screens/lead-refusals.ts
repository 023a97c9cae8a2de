import type { LeadRefusalView } from "@vitrina/core/admin";
import { dataTable, formatTime } from "../console-page.js";
import { html, type SafeHtml } from "../html.js";

/** A signed skew in words: how far the sender's clock (or its retries) was from the server's. */
function skewText(ms: number | null): string {
  if (ms === null) return "—";
  const seconds = Math.round(Math.abs(ms) / 100) / 10;
  return ms >= 0 ? `${seconds} s old` : `${seconds} s ahead`;
}

/**
 * The connector screen's "Refused leads": the newest refusals of this connector with their code,
 * the fields at fault and the timestamp skew, so an integrator can fix the sender without reading
 * the server log. Never the body or a signature: none is stored.
 */
export function refusalsSection(refusals: LeadRefusalView[], kept: number): SafeHtml {
  const rows = refusals.map(
    (r) =>
      html`<tr>
        <td>${formatTime(r.at)}</td>
        <td><code>${r.code}</code></td>
        <td>${r.fields.length === 0 ? "—" : r.fields.map((f) => html`<code>${f}</code> `)}</td>
        <td>${skewText(r.timestamp_skew_ms)}</td>
        <td>${r.request_id === null ? "—" : html`<code>${r.request_id}</code>`}</td>
        <td>${r.unrecorded_before === 0 ? "—" : `${r.unrecorded_before} more before this one`}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="refusals-heading">
    <h2 id="refusals-heading">Refused leads</h2>
    <p class="muted">
      The newest ${kept} refusals of this connector (bad signature, stale timestamp, invalid payload...). Neither the
      body nor the signature is kept.
    </p>
    ${
      refusals.length === 0
        ? html`<p>No refused leads recorded.</p>`
        : dataTable(
            "Refused leads of this connector, newest first",
            ["Refused", "Code", "Fields at fault", "Timestamp skew", "Request id", "Not recorded (over rate)"],
            rows,
          )
    }
  </section>`;
}
