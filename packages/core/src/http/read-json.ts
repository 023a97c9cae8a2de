import { ValidationError, VitrinaError, type FieldReason } from "../errors.js";
import { isJsonContentType, readBodyLimited } from "./read-body.js";
import { describeUnstorableText } from "../validation/storable-text.js";
import { rememberLossyIntegers } from "./lossy-integers.js";

/**
 * Deep enough for any real payload. Deeper is refused here: JSON.parse accepts thousands of levels
 * in a small body, but zod, structuredClone, JSON.stringify and drivers then overflow the stack.
 */
export const DEFAULT_MAX_JSON_DEPTH = 32;

/** At most this many `{ field, reason }` pairs for values a body can't have, so a hostile body can't bloat the answer. */
export const MAX_VALUE_REASONS = 20;

export interface JsonBodyLimits {
  /** Larger bodies are refused (413) without buffering the excess. */
  maxBytes: number;
  /** Default DEFAULT_MAX_JSON_DEPTH. */
  maxDepth?: number;
  /** 415 unless `Content-Type: application/json`. Default true; /mcp and /register leave it to their protocol. */
  requireJsonContentType?: boolean;
  /** What the 422 message calls the body, e.g. "lead payload". Default "request body". */
  subject?: string;
  /**
   * Remember the literal of each number beyond ±2^53 a double can't hold (`12345678901234567891`,
   * `12345678901234567891.5`), for lossyIntegerLiteral: fields stored as sent refuse it. Default false: a body with a number
   * beyond ±2^53 is then scanned a second time.
   */
  lossyIntegers?: boolean;
}

/** 415 `unsupported_media_type` unless the body is declared JSON; the unread body is discarded. */
export async function requireJsonContentType(request: Request): Promise<void> {
  if (isJsonContentType(request)) return;
  await request.body?.cancel().catch(() => {});
  throw new VitrinaError("unsupported_media_type", "Content-Type must be application/json");
}

/**
 * The one JSON body reader of every route. Throws, in this order:
 * - 415 `unsupported_media_type` when `requireJsonContentType` and the type is not JSON;
 * - 413 `payload_too_large` over `maxBytes`;
 * - 400 `malformed_json` for bytes that are not UTF-8 (decoded fatally, never with U+FFFD) or not JSON;
 * - 422 `invalid_payload` naming the JSON path (`metadata.a[2]`) of a value nested deeper than
 *   `maxDepth`, or of a key or string holding U+0000 or a lone UTF-16 surrogate (`\ud800`), which
 *   PostgreSQL text and jsonb cannot store and UTF-8 cannot encode.
 *
 * ```ts
 * const input = await readJsonBody(request, { maxBytes: 16 * 1024 });
 * ```
 */
export async function readJsonBody(request: Request, limits: JsonBodyLimits): Promise<unknown> {
  if (limits.requireJsonContentType ?? true) await requireJsonContentType(request);
  return decodeJsonBody(await readBodyLimited(request, limits.maxBytes), limits);
}

/** The decoding half of readJsonBody, for routes that need the raw bytes first (signed lead intake). */
export function decodeJsonBody(
  bytes: Uint8Array,
  limits: Pick<JsonBodyLimits, "maxDepth" | "subject" | "lossyIntegers"> = {},
): unknown {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    value = JSON.parse(text);
  } catch (cause) {
    throw new VitrinaError("malformed_json", "request body is not valid UTF-8 JSON", { cause });
  }
  const { reasons, beyondSafeIntegers } = unacceptableValues(value, limits.maxDepth ?? DEFAULT_MAX_JSON_DEPTH);
  if (reasons.length > 0) throw new ValidationError(`${limits.subject ?? "request body"} is invalid`, reasons);
  // Only a number beyond ±2^53 can have come from an integer literal a double couldn't hold, so
  // nearly every body skips the text scan. After the depth check: the scan recurses.
  if (limits.lossyIntegers && beyondSafeIntegers) rememberLossyIntegers(text, value);
  return value;
}

/** A step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;
type PathSegment = JsonPathSegment;

/** A value waiting on the walk's stack, linked to its parent so a path is built only for a reason. */
interface Pending {
  value: unknown;
  parent: Pending | null;
  segment: PathSegment;
  depth: number;
}

/** The path from the root to `node` (the root's own segment is not part of it). */
function pathOf(node: Pending): PathSegment[] {
  const path: PathSegment[] = [];
  for (let at: Pending | null = node; at !== null && at.parent !== null; at = at.parent) path.push(at.segment);
  return path.reverse();
}

/**
 * One pass over the parsed value, iterative so depth can't overflow the stack here either. A
 * too-deep value is named by its first two path segments (the field the sender knows) and not
 * descended into. Also tells whether the value holds a number beyond ±Number.MAX_SAFE_INTEGER.
 * Every JSON body goes through it, so it allocates one small node per value and builds a path
 * only for a value it reports (copying the path at every node was most of what it allocated).
 */
function unacceptableValues(root: unknown, maxDepth: number) {
  const reasons: FieldReason[] = [];
  let beyondSafeIntegers = false;
  const stack: Pending[] = [{ value: root, parent: null, segment: "", depth: 0 }];
  while (stack.length > 0 && reasons.length < MAX_VALUE_REASONS) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "number") {
      if (Math.abs(value) > Number.MAX_SAFE_INTEGER) beyondSafeIntegers = true;
      continue;
    }
    if (typeof value === "string") {
      const problem = describeUnstorableText(value);
      if (problem !== null)
        reasons.push({
          field: formatJsonPath(pathOf(node)),
          reason: `contains ${problem}, which cannot be stored; remove it`,
        });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (node.depth >= maxDepth) {
      reasons.push({ field: formatJsonPath(pathOf(node).slice(0, 2)), reason: `nests deeper than ${maxDepth} levels` });
      continue;
    }
    const depth = node.depth + 1;
    // Children are pushed last to first, so they are popped, and reported, in document order.
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        stack.push({ value: value[index], parent: node, segment: index, depth });
      continue;
    }
    const keys = Object.keys(value);
    // A key's own problem is reported before any of the object's values', as they are read; past
    // the cap nothing more is (one object with thousands of bad keys stays a short answer).
    const storable = keys.map((key) => {
      const problem = describeUnstorableText(key);
      if (problem === null) return true;
      if (reasons.length >= MAX_VALUE_REASONS) return false;
      reasons.push({
        field: formatJsonPath([...pathOf(node), key]),
        reason: `has a key that contains ${problem}, which cannot be stored; rename it`,
      });
      return false;
    });
    for (let i = keys.length - 1; i >= 0; i--)
      if (storable[i])
        stack.push({ value: (value as Record<string, unknown>)[keys[i]!], parent: node, segment: keys[i]!, depth });
  }
  return { reasons, beyondSafeIntegers };
}

const UNPRINTABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeCodeUnit(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `["metadata", "a", 2]` → `metadata.a[2]`; unstorable characters in keys are shown escaped. */
export function formatJsonPath(path: PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += (out === "" ? "" : ".") + segment.replace(UNPRINTABLE, escapeCodeUnit);
  }
  return out;
}
