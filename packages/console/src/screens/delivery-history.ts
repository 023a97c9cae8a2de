import type { DeliveryView } from "@vitrina/core";
import { csrfField, formatTime, type ScreenContext, dataTable } from "../console-page.js";
import { html } from "../html.js";

type Attempt = DeliveryView["attempts"][number];

function attemptLine(attempt: Attempt) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return html`<li>
    #${attempt.number} · ${formatTime(attempt.attempted_at)} ·
    <span class="${ok ? "status-ok" : "status-bad"}"
      >${attempt.status_code === null ? "no response" : `HTTP ${attempt.status_code}`}</span
    >
    · ${attempt.duration_ms} ms${attempt.error !== null && html` · <span>${attempt.error}</span>`}
    ${attempt.response_body_prefix !== null && attempt.response_body_prefix !== "" && html`<br /><span class="muted">Response:</span> <code>${attempt.response_body_prefix}</code>`}
  </li>`;
}

/** Deliveries newest first, each with every attempt (status, duration, error, response prefix) and resend. */
export function deliveryHistory(
  ctx: ScreenContext,
  subscriptionId: string,
  deliveries: DeliveryView[],
  canResend: boolean,
) {
  if (deliveries.length === 0)
    return html`<p>No deliveries yet. Send a test event, or wait for the next event of a chosen type.</p>`;
  const rows = deliveries.map(
    (d) =>
      html`<tr>
        <td><code>${d.event_type}</code><br /><span class="muted">${d.event_id}</span></td>
        <td>
          ${d.status}${d.status === "pending" && d.next_attempt_at !== null && html`<br /><span class="muted">next ${formatTime(d.next_attempt_at)}</span>`}
        </td>
        <td>${formatTime(d.created_at)}</td>
        <td>
          ${
            d.attempts.length === 0
              ? html`<span class="muted">not attempted yet</span>`
              : html`<ol class="attempts">
                  ${d.attempts.map((a) => attemptLine(a))}
                </ol>`
          }
        </td>
        <td>
          ${
            canResend && d.status !== "pending"
              ? html`<form
                  method="post"
                  action="${ctx.root}/webhooks/${encodeURIComponent(subscriptionId)}/deliveries/${encodeURIComponent(d.id)}/resend"
                >
                  ${csrfField(ctx)}<button class="secondary" type="submit" aria-label="Resend delivery ${d.id}">
                    Resend
                  </button>
                </form>`
              : ""
          }
        </td>
      </tr>`,
  );
  return dataTable("Deliveries, newest first", ["Event", "Status", "Created", "Attempts", ""], rows);
}
