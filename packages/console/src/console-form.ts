import { type FieldReason, isVitrinaError } from "@vitrina/core";
import { readFormBody } from "@vitrina/core/http";
import type { ScreenContext } from "./console-page.js";

/**
 * A console form post, read by core's one form reader (the OAuth forms' too): urlencoded, UTF-8 down
 * to every percent-escape, at most 16 KiB, text PostgreSQL can store. Repeated names are kept
 * (checkbox groups).
 */
export const readConsoleForm = (request: Request): Promise<URLSearchParams> => readFormBody(request);

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
