import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { vitrinaSourceAliases } from "./vitest.aliases.js";

export default defineConfig({
  resolve: { alias: vitrinaSourceAliases },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    // Most suites wait on PostgreSQL, child processes, sockets or a browser rather than compute, so
    // two files at a time overlap those waits even on a 2-core machine (vitest's default there is 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
  },
});
