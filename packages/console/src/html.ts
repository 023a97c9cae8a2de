/**
 * HTML built from template literals, escaped by default: every `${value}` is text unless it is
 * already `SafeHtml` (another `html` fragment, or `raw(...)` for markup we wrote ourselves). Arrays
 * are joined, `null`/`undefined`/`false` render as nothing, so `${cond && html`…`}` reads naturally.
 * One place escapes, so no screen can forget to.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false || value === true) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Markup we wrote ourselves (never user input). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
