import type { CliContext } from "./context.js";

/** Where CRMs post leads, under the mount: core's route owns the path. */
export { LEAD_INTAKE_PATH } from "@vitrina/core";

/**
 * The address a CRM or the provider reaches `path` at: `--public-url` when given, else the config's
 * `publicUrl`, always under the mount. A flag with a path (`https://api.example.com/vitrina`) is the
 * whole base; an origin alone gets the configured `basePath`, so no printed URL loses the prefix.
 * Undefined when neither says where Vitrina is reachable.
 */
export function publicAddress(ctx: CliContext, path: string, flag?: string): string | undefined {
  const base = flag === undefined ? ctx.vitrina.publicBaseUrl : publicBase(flag, ctx.vitrina.basePath);
  return base === undefined ? undefined : `${base}${path}`;
}

/** `url` with a path is the whole base; an origin alone gets `basePath` (`""` or `/prefix`). */
export function publicBase(url: string, basePath: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  return `${parsed.origin}${path === "" ? basePath : path}`;
}
