import { fileURLToPath } from "node:url";

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Every `@vitrina/*` import mapped to its TypeScript source, so a change is tested without a
 * rebuild. Used by vitest.config.ts, and by the tests' CLI bundle (packages/http-node/test/support/
 * run-cli.ts), which must resolve exactly as the tests do. The built packages are exercised
 * separately by `pnpm smoke` (scripts/smoke-built.mjs).
 */
export const vitrinaSourceAliases: Array<{ find: RegExp; replacement: string }> = [
  { find: /^@vitrina\/core\/testing$/, replacement: src("./packages/core/src/testing/index.ts") },
  {
    find: /^@vitrina\/core\/(capabilities|webhooks|oauth|mcp|storage|http|demo|whatsapp|admin)$/,
    replacement: src("./packages/core/src/entries/$1.ts"),
  },
  { find: /^@vitrina\/core$/, replacement: src("./packages/core/src/index.ts") },
  { find: /^@vitrina\/adapter-memory$/, replacement: src("./packages/adapter-memory/src/index.ts") },
  { find: /^@vitrina\/adapter-postgres$/, replacement: src("./packages/adapter-postgres/src/index.ts") },
  { find: /^@vitrina\/http-node\/fastify$/, replacement: src("./packages/http-node/src/fastify.ts") },
  { find: /^@vitrina\/http-node$/, replacement: src("./packages/http-node/src/index.ts") },
  { find: /^@vitrina\/client$/, replacement: src("./packages/client/src/index.ts") },
  { find: /^@vitrina\/console$/, replacement: src("./packages/console/src/index.ts") },
];
