import { EVENT_TYPES } from "@vitrina/core";
import {
  TEST_EVENT_TYPE,
  type DeliveryPageOptions,
  type DeliveryView,
  type EndpointService,
  type Page,
} from "@vitrina/core/webhooks";
import { formatTime } from "../console-page.js";
import { html } from "../html.js";

const FILTERS = ["status", "event_type", "event_id"] as const;

/** The history page asked for in the URL: filters and one cursor (checked by the service, which names a bad one). */
export function historyQuery(url: URL): DeliveryPageOptions {
  const get = (name: string) => url.searchParams.get(name) || undefined;
  const options: DeliveryPageOptions = { limit: 20 };
  const pairs: [keyof DeliveryPageOptions, string][] = [
    ["status", "status"],
    ["eventType", "event_type"],
    ["eventId", "event_id"],
    ["startingAfter", "starting_after"],
    ["endingBefore", "ending_before"],
  ];
  for (const [key, name] of pairs) if (get(name) !== undefined) (options as Record<string, unknown>)[key] = get(name);
  return options;
}

/** A GET form over the history: status, event type, event id (finds one event's delivery). */
export function historyFilters(path: string, url: URL) {
  const status = url.searchParams.get("status") ?? "";
  const type = url.searchParams.get("event_type") ?? "";
  const option = (value: string, chosen: string, label = value) =>
    html`<option value="${value}" ${value === chosen ? html` selected` : ""}>${label}</option>`;
  return html`<form class="panel" method="get" action="${path}" role="search" aria-label="Filter deliveries">
    <label for="filter-status">Status</label>
    <select id="filter-status" name="status">
      ${option("", status, "any")} ${["pending", "succeeded", "failed"].map((s) => option(s, status))}
    </select>
    <label for="filter-type">Event type</label>
    <select id="filter-type" name="event_type">
      ${option("", type, "any")} ${[...EVENT_TYPES, TEST_EVENT_TYPE].map((t) => option(t, type))}
    </select>
    <label for="filter-event">Event id</label>
    <input id="filter-event" name="event_id" maxlength="200" value="${url.searchParams.get("event_id") ?? ""}" />
    <div class="actions"><button class="secondary" type="submit">Filter</button></div>
  </form>`;
}

/**
 * Newest, newer and older links for a page, keeping the filters. Newer is offered on any page
 * reached through a cursor (there is at least the row it started from), except the top of an
 * `ending_before` page with nothing above it; older when there is more below.
 */
export function historyPager(path: string, url: URL, page: Page<DeliveryView>) {
  const kept = new URLSearchParams();
  for (const name of FILTERS) {
    const value = url.searchParams.get(name);
    if (value) kept.set(name, value);
  }
  const link = (cursor: [string, string] | null) => {
    const query = new URLSearchParams(kept);
    if (cursor !== null) query.set(...cursor);
    const text = query.toString();
    return text === "" ? path : `${path}?${text}`;
  };
  const after = url.searchParams.get("starting_after");
  const before = url.searchParams.get("ending_before");
  const first = page.data[0];
  const last = page.data.at(-1);
  const hasNewer = after !== null || (before !== null && page.has_more);
  const hasOlder = before !== null ? last !== undefined : page.has_more;
  const links = [
    (after !== null || before !== null) && html`<a href="${link(null)}">Newest</a>`,
    hasNewer && first !== undefined && html`<a href="${link(["ending_before", first.id])}">Newer</a>`,
    hasOlder && last !== undefined && html`<a href="${link(["starting_after", last.id])}">Older</a>`,
  ].filter((l) => l !== false);
  return links.length === 0 ? "" : html`<nav aria-label="Delivery pages"><p>${links.map((l) => html`${l} `)}</p></nav>`;
}

type DeliveryDetail = Awaited<ReturnType<EndpointService["delivery"]>>;

/** One delivery: the body as sent (pretty-printed), and each attempt with the headers it went out with. */
export function deliveryDetailBody(subscriptionPath: string, d: DeliveryDetail) {
  const attempts = d.attempts.map(
    (a) =>
      html`<section class="panel" aria-labelledby="attempt-${a.number}">
        <h3 id="attempt-${a.number}">Attempt ${a.number} · ${formatTime(a.attempted_at)}</h3>
        <p>
          ${a.status_code === null ? "no response" : `HTTP ${a.status_code}`} · ${a.duration_ms} ms
          ${a.error !== null && html` · ${a.error}`}
        </p>
        ${
          a.request_headers === null
            ? html`<p class="muted">Request headers were not kept for this attempt.</p>`
            : html`<h4>Request headers (signatures redacted)</h4>
                <pre><code>${Object.entries(a.request_headers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join("\n")}</code></pre>`
        }
        ${
          a.response_body_prefix !== null &&
          html`<h4>Response (first 1 KiB)</h4>
            <pre><code>${a.response_body_prefix}</code></pre>`
        }
      </section>`,
  );
  return html`<p><a href="${subscriptionPath}">Back to the endpoint</a></p>
    <dl>
      <dt>Event</dt>
      <dd><code>${d.event_type}</code> <code>${d.event_id}</code></dd>
      <dt>Status</dt>
      <dd>${d.status}${d.last_error !== null && html` (${d.last_error})`}</dd>
      <dt>Created</dt>
      <dd>${formatTime(d.created_at)}</dd>
    </dl>
    <h2>Payload</h2>
    ${
      d.event === null
        ? html`<p class="muted">The event is no longer stored.</p>`
        : html`<pre><code>${JSON.stringify(d.event, null, 2)}</code></pre>`
    }
    <h2>Attempts</h2>
    ${attempts.length === 0 ? html`<p>Not attempted yet.</p>` : attempts}`;
}
