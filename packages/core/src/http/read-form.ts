import { ValidationError, VitrinaError, type FieldReason } from "../errors.js";
import { isStorableText, UNSTORABLE_TEXT_REASON } from "../validation/storable-text.js";
import { mediaTypeOf, readBodyLimited } from "./read-body.js";

/** Forms (OAuth's token, revoke and consent posts, the console's) are a few short fields. */
export const DEFAULT_FORM_MAX_BYTES = 16 * 1024;

/**
 * An `application/x-www-form-urlencoded` body, read once under a limit, by one set of rules for
 * every form Vitrina takes: the body and every percent-escape in it must be UTF-8 (`URLSearchParams`
 * would turn `%FF` into U+FFFD and a malformed `%G1` into itself, so a value would be stored other
 * than as sent; here they are refused), and a value PostgreSQL can't store (`%00`) is refused
 * naming its field. Repeated names are kept; a caller whose protocol forbids them (OAuth) checks.
 *
 * Throws `payload_too_large`, `unsupported_media_type`, `invalid_argument` (not UTF-8) or
 * `invalid_payload` with the fields at fault.
 */
export async function readFormBody(
  request: Request,
  { maxBytes = DEFAULT_FORM_MAX_BYTES }: { maxBytes?: number } = {},
): Promise<URLSearchParams> {
  const bytes = await readBodyLimited(request, maxBytes);
  if (mediaTypeOf(request) !== "application/x-www-form-urlencoded")
    throw new VitrinaError("unsupported_media_type", "the body must be application/x-www-form-urlencoded");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new VitrinaError("invalid_argument", "the form is not valid UTF-8", { cause });
  }
  const form = new URLSearchParams();
  const reasons: FieldReason[] = [];
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? "" : pair.slice(eq + 1));
    if (name === null) reasons.push({ field: "", reason: `a field name ${NOT_UTF8}` });
    else if (value === null) reasons.push({ field: name, reason: NOT_UTF8 });
    else if (!isStorableText(name) || !isStorableText(value))
      reasons.push({ field: name, reason: UNSTORABLE_TEXT_REASON });
    else form.append(name, value);
  }
  if (reasons.length > 0) throw new ValidationError("the form is invalid", reasons);
  return form;
}

const NOT_UTF8 = "is not percent-encoded UTF-8";

/** A form component (`+` for space, `%XX` escapes), or null when an escape is malformed or not UTF-8. */
function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return null;
  }
}
