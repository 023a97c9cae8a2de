import { defineConfig, type Options } from "tsup";

/**
 * The one build setting every package shares: ESM only, type declarations, source maps, ES2022
 * (Node 20.19 and every current runtime). A package's own tsup.config.ts names its entries and
 * what stays external (peer packages and drivers are never bundled).
 */
export function packageBuild(options: Pick<Options, "entry" | "external" | "noExternal" | "define">) {
  return defineConfig({
    format: ["esm"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "es2022",
    ...options,
  });
}
