import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { VitrinaError } from "../errors.js";

// Replaced by tsup with the package version; absent when tests run the TypeScript sources.
declare const __VITRINA_CORE_VERSION__: string | undefined;
export const SCOPE_VERSION = typeof __VITRINA_CORE_VERSION__ === "string" ? __VITRINA_CORE_VERSION__ : undefined;
export const INSTRUMENTATION_SCOPE = "@vitrina/core";

/**
 * Asked for on every span rather than once at import: the global provider is whatever SDK the
 * app registered by then (a no-op without one), so importing core before the SDK starts is fine.
 */
export const tracer = () => trace.getTracer(INSTRUMENTATION_SCOPE, SCOPE_VERSION);

/**
 * The low-cardinality class of a failure for `error.type`: a VitrinaError's code, a JSON-RPC
 * error's code (the MCP SDK's McpError), else the error's name. `expected` marks the first two:
 * failures we answer on purpose, whose messages can quote the caller's input (a phone number, a
 * tool name typed by a model).
 */
function classify(error: unknown): { type: string; expected: boolean } {
  if (error instanceof VitrinaError) return { type: error.code, expected: true };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number") return { type: String(code), expected: true };
  return { type: error instanceof Error ? error.name : "_OTHER", expected: false };
}

export const errorType = (error: unknown): string => classify(error).type;

/**
 * Records a failure on `span`. An expected one is recorded by its class only, never its message;
 * anything else is a bug or an outage, recorded with its message and stack as the logs do.
 */
export function recordFailure(span: Span, error: unknown): void {
  const { type, expected } = classify(error);
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  if (!expected && error instanceof Error) span.recordException(error);
  else span.recordException({ name: error instanceof Error ? error.name : "_OTHER", message: type });
}

export interface SpanOptions {
  kind?: SpanKind;
  /** Parent context; default the active one (an app's HTTP server span, when it has one). */
  parent?: Context;
}

/**
 * Runs `fn` inside an active span named `name`: a thrown error is recorded (see `recordFailure`),
 * sets the span's status to ERROR and is rethrown; the span always ends. `fn` gets the span to
 * add attributes it learns on the way. Attributes never carry secrets, contact data or bodies.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Adds attributes to the span of the work in progress, if an SDK with a context manager runs. */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
