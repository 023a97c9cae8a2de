import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { VitrinaError } from "../errors.js";

// Replaced by tsup with the package version; absent when tests run the TypeScript sources.
declare const __VITRINA_CORE_VERSION__: string | undefined;
const SCOPE_VERSION = typeof __VITRINA_CORE_VERSION__ === "string" ? __VITRINA_CORE_VERSION__ : undefined;
export const INSTRUMENTATION_SCOPE = "@vitrina/core";

/**
 * Asked for on every span rather than once at import: the global provider is whatever SDK the
 * app registered by then (a no-op without one), so importing core before the SDK starts is fine.
 */
export const tracer = () => trace.getTracer(INSTRUMENTATION_SCOPE, SCOPE_VERSION);

/**
 * The low-cardinality class of a failure for `error.type`: a VitrinaError's code, a JSON-RPC
 * error's code, else the error's name. Never its message, which can quote the input (a phone
 * number, an email).
 */
export function errorType(error: unknown): string {
  if (error instanceof VitrinaError) return error.code;
  // A JSON-RPC error (the MCP SDK's McpError) by its numeric code, as the MCP conventions ask.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number") return String(code);
  return error instanceof Error ? error.name : "_OTHER";
}

/**
 * Records a failure on `span`. Our own errors are recorded by code only, since their messages
 * may quote what the caller sent; anything else is a bug or an outage, recorded with its stack
 * as the logs record it.
 */
export function recordFailure(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  if (error instanceof VitrinaError) span.recordException({ name: error.name, message: error.code });
  else if (error instanceof Error) span.recordException(error);
  else span.recordException({ name: "_OTHER", message: "non-Error thrown" });
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
export function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, options: SpanOptions = {}): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the span of the work in progress, if an SDK with a context manager runs. */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
