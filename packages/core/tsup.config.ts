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
    admin: "src/entries/admin.ts",
    "testing/index": "src/testing/index.ts",
  },
  external: ["vitest"],
  // The MCP SDK is bundled: core uses its protocol Server, OAuth error classes and schemas, never its
  // HTTP servers, yet depending on it installed Express, Hono, cors and express-rate-limit (~90
  // packages) into every app. What the bundle takes from it and its dependencies is listed, with
  // their licenses, in dist/THIRD_PARTY_NOTICES.md (scripts/bundled-licenses.mjs).
  noExternal: [/^@modelcontextprotocol\/sdk/],
  // The instrumentation scope version of our spans and metrics (telemetry/tracing.ts).
  define: { __VITRINA_CORE_VERSION__: JSON.stringify(version) },
});
