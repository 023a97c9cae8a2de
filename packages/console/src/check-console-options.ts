import { VitrinaError } from "@vitrina/core";

type Kind = "function" | "string" | "number";
const OPTION_KINDS: Record<string, Kind> = {
  signIn: "function",
  loginUrl: "string",
  sessionTtlSeconds: "number",
  sessionMaxAgeSeconds: "number",
  productName: "string",
};

/**
 * Kinds only, at `vitrinaConsole()`: a hook given where an object belongs otherwise surfaces as a 500
 * at the first sign-in (`options.signIn is not a function`, item 5 of issue 46). The same wording as
 * core's option checks, so both read alike in a log.
 */
export function checkConsoleOptions(options: unknown): void {
  if (options === null || typeof options !== "object")
    throw invalid("options", `must be an object (got ${kindOf(options)})`);
  const record = options as Record<string, unknown>;
  if (record.signIn === undefined) throw invalid("signIn", "is required and must be a function (got undefined)");
  for (const [name, kind] of Object.entries(OPTION_KINDS)) {
    const value = record[name];
    if (value === undefined || typeof value === kind) continue;
    // The mistake issue 46 saw: the whole option (`{ signIn }`) passed as its own `signIn`.
    const nested =
      kindOf(value) === "an object" && Object.hasOwn(value as object, name)
        ? `; it looks like the whole option, which has a ${name} of its own`
        : "";
    throw invalid(name, `must be a ${kind} (got ${kindOf(value)})${nested}`);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

function invalid(field: string, reason: string): VitrinaError {
  return new VitrinaError("invalid_argument", `vitrinaConsole: ${field} ${reason}`, { reasons: [{ field, reason }] });
}
