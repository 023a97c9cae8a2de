import { readFileSync } from "node:fs";
import { packageBuild } from "../../tsup.config.base.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default packageBuild({
  entry: {
    index: "src/index.ts",
    capabilities: "src/entries/capabilities.ts",
    webhooks: "src/entries/webhooks.ts",
    oauth: "src/entries/oauth.ts",
    mcp: "src/entries/mcp.ts",
    storage: "src/entries/storage.ts",
    http: "src/entries/http.ts",
    demo: "src/entries/demo.ts",
    whatsapp: "src/entries/whatsapp.ts",
    "testing/index": "src/testing/index.ts",
  },
  external: ["vitest"],
  // The instrumentation scope version of our spans and metrics (telemetry/tracing.ts).
  define: { __VITRINA_CORE_VERSION__: JSON.stringify(version) },
});
