import type { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const NAMED = Symbol("vitrina.namedSchema");

/** A schema the OpenAPI document publishes once, under `components.schemas[id]`, and references. */
export interface NamedSchema {
  readonly [NAMED]: true;
  id: string;
  schema: z.ZodType | JsonSchema;
}

/** Names a view's schema, so every operation that answers it references one component. */
export function namedSchema(id: string, schema: z.ZodType | JsonSchema): NamedSchema {
  return { [NAMED]: true, id, schema };
}

export function isNamedSchema(value: unknown): value is NamedSchema {
  return typeof value === "object" && value !== null && NAMED in value;
}

/**
 * A body or answer: a zod schema (converted with `z.toJSONSchema`), a named one, or a JSON Schema,
 * which may hold named ones anywhere inside (each becomes a `$ref` to its component).
 */
export type DocSchema = z.ZodType | JsonSchema | NamedSchema;

export interface ResponseDoc {
  description: string;
  schema?: DocSchema;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

/**
 * A route's OpenAPI operation, kept on the route itself so a path is spelt once and a route can't
 * exist undocumented. Path parameters come from the route's path; every operation also answers
 * 500 and 503 (see `openapi-document.ts`), which need not be listed.
 */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** OpenAPI security requirements (`[{ bearer: ["webhooks:read"] }]`); `[]` for a public route. */
  security: Array<Record<string, string[]>>;
  /** Query and header parameters, as OpenAPI Parameter Objects. */
  parameters?: JsonSchema[];
  requestBody?: { schema: DocSchema; required?: boolean; contentType?: string };
  /** The answers that are not errors, by status. */
  responses: Record<string, ResponseDoc>;
  /** The error statuses this route answers with the error body (`#/components/responses/Error<status>`). */
  errors: number[];
}

/** For a route that stands for several documented paths (`/v1/rest/{capability}`: one per capability). */
export interface ExpandedDoc {
  /** Concrete path (OpenAPI form, `{name}` params) → the operation of this route's method there. */
  expand(): Record<string, OperationDoc>;
}

/** `false` leaves a route out of the document on purpose; the route then says why in `undocumented`. */
export type RouteOpenApi = OperationDoc | ExpandedDoc | false;

/** A bearer requirement needing every one of `scopes` (one Security Requirement Object). */
export const bearer = (...scopes: string[]): Array<Record<string, string[]>> => [{ bearer: scopes }];

/** A list page's schema: `{ object: "list", data, has_more, next_cursor }` (see `ListPage`). */
export function listPageSchema(item: DocSchema): JsonSchema {
  return {
    type: "object",
    required: ["object", "data", "has_more", "next_cursor"],
    properties: {
      object: { type: "string", const: "list" },
      data: { type: "array", items: item },
      has_more: { type: "boolean" },
      next_cursor: {
        anyOf: [{ type: "string" }, { type: "null" }],
        description:
          "The cursor that continues in the direction this page was read (`starting_after` of the next older page, or `ending_before` of the next newer one), or null on the last.",
      },
    },
  };
}

/**
 * Marks routes deliberately left out of the OpenAPI document (`openapi: false`), with the reason:
 * for a whole surface another document or protocol describes (OAuth's metadata, the console's pages).
 */
export function undocumented<R extends { openapi?: RouteOpenApi; undocumented?: string }>(
  routes: R[],
  reason: string,
): R[] {
  return routes.map((route) =>
    route.openapi === undefined ? { ...route, openapi: false, undocumented: reason } : route,
  );
}

/**
 * An operation behind `Authorization: Bearer` needing `scope`, in the API tagged `tag`: the
 * refusals of its guard (401, 403) and of path and query parameters (400) are listed for every one.
 */
export function bearerOperation(
  tag: string,
  scope: string,
  doc: Omit<OperationDoc, "tags" | "security" | "errors"> & { errors?: number[] },
): OperationDoc {
  return { ...doc, tags: [tag], security: bearer(scope), errors: [400, 401, 403, ...(doc.errors ?? [])] };
}
