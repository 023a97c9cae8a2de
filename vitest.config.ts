import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources, so a change is tested without a rebuild.
// The built packages are exercised separately by `pnpm smoke` (scripts/smoke-built.mjs).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@vitrina\/core\/testing$/, replacement: src("./packages/core/src/testing/index.ts") },
      {
        find: /^@vitrina\/core\/(capabilities|webhooks|oauth|mcp|storage|http|demo)$/,
        replacement: src("./packages/core/src/entries/$1.ts"),
      },
      { find: /^@vitrina\/core$/, replacement: src("./packages/core/src/index.ts") },
      { find: /^@vitrina\/adapter-memory$/, replacement: src("./packages/adapter-memory/src/index.ts") },
      { find: /^@vitrina\/adapter-postgres$/, replacement: src("./packages/adapter-postgres/src/index.ts") },
      { find: /^@vitrina\/http-node\/fastify$/, replacement: src("./packages/http-node/src/fastify.ts") },
      { find: /^@vitrina\/http-node$/, replacement: src("./packages/http-node/src/index.ts") },
      { find: /^@vitrina\/client$/, replacement: src("./packages/client/src/index.ts") },
    ],
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    // Most suites wait on PostgreSQL, child processes, sockets or a browser rather than compute, so
    // two files at a time overlap those waits even on a 2-core machine (vitest's default there is 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
  },
});
