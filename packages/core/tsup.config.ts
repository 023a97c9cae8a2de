import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  external: ["vitest"],
  // The instrumentation scope version of our spans and metrics (telemetry/tracing.ts).
  define: { __VITRINA_CORE_VERSION__: JSON.stringify(version) },
});
