import { type FieldReason, isVitrinaError, ValidationError, VitrinaError } from "@vitrina/core";
import { readBodyLimited } from "@vitrina/core/http";
import { isStorableText, UNSTORABLE_TEXT_REASON } from "@vitrina/core/storage";
import type { ScreenContext } from "./console-page.js";

/** Console forms are a few short fields; anything larger is not one of ours. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * A console form post (`application/x-www-form-urlencoded`, UTF-8, at most 16 KiB). Repeated
 * names are kept (checkbox groups); a value PostgreSQL can't store is refused naming its field.
 */
export async function readConsoleForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const bytes = await readBodyLimited(request, MAX_FORM_BYTES);
  if (type !== "application/x-www-form-urlencoded")
    throw new VitrinaError("unsupported_media_type", "console forms are sent as application/x-www-form-urlencoded");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new VitrinaError("invalid_argument", "the form is not valid UTF-8", { cause });
  }
  const form = new URLSearchParams(text);
  const reasons = [...form].filter(([, value]) => !isStorableText(value));
  if (reasons.length > 0)
    throw new ValidationError(
      "the form is invalid",
      reasons.map(([field]) => ({ field, reason: UNSTORABLE_TEXT_REASON })),
    );
  return form;
}

/** A single text field, trimmed; "" when absent. */
export function field(form: URLSearchParams, name: string): string {
  return (form.get(name) ?? "").trim();
}

/** Owners and admins see the forms that change things; the services refuse anyone else anyway. */
export const canManage = (ctx: ScreenContext) => ctx.role === "owner" || ctx.role === "admin";

/**
 * The field errors of a refused form, to show next to it; anything else (403, 404, 5xx) is
 * rethrown for the guard to answer as a page.
 */
export function formErrors(error: unknown): FieldReason[] {
  if (isVitrinaError(error) && ["invalid_payload", "invalid_argument", "conflict"].includes(error.code))
    return error.reasons.length > 0 ? error.reasons : [{ field: "", reason: error.message }];
  throw error;
}
