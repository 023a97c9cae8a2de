// Runs one of the repo's TypeScript or .mjs entry points in this (separate) Node process, from
// the sources, with the same `@vitrina/*` aliases the tests use (Vite's module runner and the
// root vitest.config.ts). Tests use it to put a real server or CLI in another process.
//   node run-source.mjs <path/to/vite/index.js> <repo root> <module path from the root> [args...]
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [vitePath, root, entry, ...args] = process.argv.slice(2);
const { createServer } = await import(pathToFileURL(vitePath).href);
const vite = await createServer({
  root,
  configFile: join(root, "vitest.config.ts"),
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
// The entry reads its arguments from process.argv, as it would when run directly.
process.argv = [process.argv[0], join(root, entry), ...args];
await vite.ssrLoadModule(`/${entry}`);
