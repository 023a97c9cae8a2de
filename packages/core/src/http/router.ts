import { VitrinaError } from "../errors.js";
import { assertStorableText } from "../validation/storable-text.js";
import type { Logger } from "../ports/logger.js";
import { webRequestOf } from "./direct-body.js";
import { errorResponse } from "./json.js";
import type { ContextualHandler, RequestContext } from "./request-context.js";
import type { RouteOpenApi } from "./route-doc.js";

export type Handler = (request: Request) => Promise<Response>;
/** `context` carries the request id and a logger bound to it; handlers that log use that logger. */
export type RouteHandler = (
  request: Request,
  params: Record<string, string>,
  context: RequestContext,
) => Promise<Response>;

export interface Route {
  method: string;
  /** Path pattern; `:name` segments become params, a trailing `*` matches the rest. */
  path: string;
  handler: RouteHandler;
  /**
   * The route reads its body only through `readBodyLimited` and never hands the request to code
   * outside core, so it may get a server binding's direct-body request as it came (see
   * `direct-body.ts`). Every other route gets a real web Request.
   */
  readsBodyDirectly?: boolean;
  /**
   * The route's OpenAPI description (`GET /v1/openapi.json` is built by walking the routes), or
   * `false` with the reason in `undocumented` for a route deliberately left out (an HTML page, a
   * discovery document). A test fails on a route of Vitrina's that says neither.
   */
  openapi?: RouteOpenApi;
  /** Why `openapi` is `false`. */
  undocumented?: string;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { ...route, pattern: new RegExp(`^${source}/?$`), names };
}

/**
 * Path params, percent-decoded; a malformed escape (`%E0%A4%A`) is the caller's error, not a 500.
 * A `%00` in a param or in the query is refused here, naming the field, for every route at once:
 * ids and cursors go straight into storage lookups, and PostgreSQL cannot hold U+0000.
 */
function decodeParams(names: string[], match: RegExpExecArray, query: URLSearchParams): Record<string, string> {
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    try {
      params[name] = decodeURIComponent(match[i + 1] ?? "");
    } catch (cause) {
      throw new VitrinaError("invalid_argument", `path parameter ${name} is not valid percent-encoding`, { cause });
    }
    assertStorableText(params[name], name);
  });
  for (const [name, value] of query) assertStorableText(value, name);
  return params;
}

/**
 * The whole service behind one `(request) => Promise<Response>`. Unknown paths get 404, a known
 * path with another method gets 405 with `Allow`, and every thrown error becomes the JSON error body.
 */
export function createRouter(
  routes: Route[],
  logger: Logger,
  routePath: (pathname: string) => string = (path) => path,
): ContextualHandler {
  const compiled = routes.map(compile);
  const dispatch: ContextualHandler = async (request, context = { logger }) => {
    const scoped = context.logger;
    // HEAD is GET without the body (RFC 9110 §9.3.2): uptime monitors, load balancers and
    // `curl -I` send it to /healthz and friends, and a 405 reads to them as "down".
    const method = request.method === "HEAD" ? "GET" : request.method;
    const { pathname, searchParams } = new URL(request.url);
    // Routes are written from Vitrina's root; a mount prefix (`basePath`) comes off first.
    const local = routePath(pathname);
    const allowed: string[] = [];
    for (const route of compiled) {
      const match = route.pattern.exec(local);
      if (match === null) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        if (route.method === "GET") allowed.push("HEAD");
        continue;
      }
      try {
        const routeRequest = route.readsBodyDirectly === true ? request : webRequestOf(request);
        return await route.handler(routeRequest, decodeParams(route.names, match, searchParams), context);
      } catch (error) {
        return errorResponse(error, scoped, {}, context.requestId);
      }
    }
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(", ");
      return errorResponse(
        new VitrinaError("method_not_allowed", `${request.method} is not allowed on ${pathname}; use ${allow}`),
        scoped,
        { allow },
        context.requestId,
      );
    }
    return errorResponse(
      new VitrinaError("not_found", `no route for ${request.method} ${pathname}`),
      scoped,
      {},
      context.requestId,
    );
  };
  return async (request, context) => {
    const response = await dispatch(request, context);
    return request.method === "HEAD" ? withoutBody(response) : response;
  };
}

/** The same status and headers with no body (what HEAD answers); the body is released unread. */
function withoutBody(response: Response): Response {
  if (response.body === null) return response;
  response.body.cancel().catch(() => {});
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
