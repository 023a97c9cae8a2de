import type { CliContext } from "./context.js";

/**
 * The address a CRM or the provider reaches `path` at: `--public-url` when given, else the config's
 * `publicUrl`, always under the mount. A flag with a path (`https://api.example.com/vitrina`) is the
 * whole base; an origin alone gets the configured `basePath`, so no printed URL loses the prefix.
 * Undefined when neither says where Vitrina is reachable.
 */
export function publicAddress(ctx: CliContext, path: string, flag?: string): string | undefined {
  const base = flag === undefined ? ctx.vitrina.publicBaseUrl : baseFromFlag(flag, ctx.vitrina.basePath);
  return base === undefined ? undefined : `${base}${path}`;
}

function baseFromFlag(flag: string, basePath: string): string {
  const url = new URL(flag);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path === "" ? basePath : path}`;
}
