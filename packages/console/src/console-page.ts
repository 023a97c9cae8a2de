import type { FieldReason, WorkspaceRole } from "@vitrina/core";
import { CONSOLE_ASSETS } from "./console-assets.js";
import { html, type SafeHtml } from "./html.js";

/** What every screen needs to draw the frame around it and its forms. */
export interface ScreenContext {
  /** The console's URL path (`<basePath>/console`), which every link starts with. */
  root: string;
  productName: string;
  userId: string;
  role: WorkspaceRole;
  workspaceId: string;
  csrfToken: string;
  /** The origin + basePath clients reach Vitrina at (lead intake URL, snippets). */
  publicBase: string;
}

export type Section = "integrations" | "leads" | "conversations" | "whatsapp" | "webhooks" | "api-keys" | "members";

const SECTIONS: { id: Section; label: string; path: string }[] = [
  { id: "integrations", label: "Integrations", path: "/integrations" },
  { id: "leads", label: "Leads", path: "/leads" },
  { id: "conversations", label: "Conversations", path: "/conversations" },
  { id: "whatsapp", label: "WhatsApp channel", path: "/whatsapp" },
  { id: "webhooks", label: "Webhooks", path: "/webhooks" },
  { id: "api-keys", label: "Settings → API keys", path: "/settings/api-keys" },
  { id: "members", label: "Settings → Members", path: "/settings/members" },
];

/**
 * Security headers of every console page: no framing, nothing loaded from elsewhere, forms post
 * only here, and nothing cached (pages may show a secret once).
 */
export const CONSOLE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export function htmlResponse(body: SafeHtml, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(`<!doctype html>\n${body.value}`, { status, headers: { ...CONSOLE_HEADERS, ...headers } });
}

/** A bare document (sign-in and error pages outside a session). */
export function documentShell(options: { root: string; title: string; productName: string; body: SafeHtml }): SafeHtml {
  return html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${options.title} · ${options.productName} console</title>
      <link rel="stylesheet" href="${options.root}${CONSOLE_ASSETS.styles.path}" />
    </head>
    <body>
      ${options.body}
      <script src="${options.root}${CONSOLE_ASSETS.script.path}" defer></script>
    </body>
  </html>`;
}

/** The hidden field every state-changing form carries. */
export function csrfField(ctx: ScreenContext): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />`;
}

/** A screen inside the console frame: header with who is signed in, navigation, and `main`. */
export function consolePage(
  ctx: ScreenContext,
  options: { title: string; section: Section; body: SafeHtml; notice?: string; errors?: FieldReason[] | string },
): SafeHtml {
  const nav = SECTIONS.map(
    (s) =>
      html`<li>
        <a href="${ctx.root}${s.path}" ${s.id === options.section ? html` aria-current="page"` : ""}>${s.label}</a>
      </li>`,
  );
  return documentShell({
    root: ctx.root,
    title: options.title,
    productName: ctx.productName,
    body: html`<a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">${ctx.productName} console</span>
        <nav class="main" aria-label="Console">
          <ul>
            ${nav}
          </ul>
        </nav>
        <span class="muted"
          >${ctx.userId} (${ctx.role})
          <form class="inline-form" method="post" action="${ctx.root}/sign-out">
            ${csrfField(ctx)}<button class="secondary" type="submit">Sign out everywhere</button>
          </form></span
        >
      </header>
      <main id="main">
        <h1>${options.title}</h1>
        ${options.notice !== undefined && html`<p class="notice" role="status">${options.notice}</p>`}
        ${errorList(options.errors)} ${options.body}
      </main>`,
  });
}

/**
 * A data table with column headers (`scope="col"`, so screen readers announce them per cell); an
 * empty header is labelled for assistive tech only ("Actions").
 */
export function dataTable(caption: string, headers: string[], rows: SafeHtml[]): SafeHtml {
  const heads = headers.map((h) =>
    h === "" ? html`<th scope="col"><span class="muted">Actions</span></th>` : html`<th scope="col">${h}</th>`,
  );
  return html`<table>
    <caption class="muted">
      ${caption}
    </caption>
    <thead>
      <tr>
        ${heads}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** A console screen as a response: 422 when it shows a refused form's errors, else 200. */
export function screenResponse(ctx: ScreenContext, options: Parameters<typeof consolePage>[1]): Response {
  return htmlResponse(consolePage(ctx, options), options.errors === undefined ? 200 : 422);
}

/** Field errors as a list the user can act on (`field: reason`), announced to screen readers. */
export function errorList(errors: FieldReason[] | string | undefined): SafeHtml | "" {
  if (errors === undefined) return "";
  if (typeof errors === "string") return html`<div class="errors" role="alert"><p>${errors}</p></div>`;
  if (errors.length === 0) return "";
  return html`<div class="errors" role="alert">
    <p>Please fix the following:</p>
    <ul>
      ${errors.map((e) => html`<li>${e.field === "" ? "" : html`<strong>${e.field}</strong>: `}${e.reason}</li>`)}
    </ul>
  </div>`;
}

/** A secret shown once, with a copy button (when scripts run) and the warning that it won't be shown again. */
export function secretOnce(id: string, label: string, secret: string): SafeHtml {
  return html`<section class="secret" aria-labelledby="${id}-label">
    <h2 id="${id}-label">${label}</h2>
    <p>Copy it now: it is shown once and cannot be shown again.</p>
    <p>
      <code class="value" id="${id}">${secret}</code
      ><button type="button" class="copy secondary" data-copy="${id}" hidden>Copy</button>
    </p>
  </section>`;
}

export function formatTime(iso: string | null): string {
  return iso === null ? "—" : iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
}
