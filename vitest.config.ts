import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { vitrinaSourceAliases } from "./vitest.aliases.js";

/** Runs a child process (the CLI, a server, another runtime), a browser, or an example app. */
const endToEnd = [
  "packages/*/test/**/*.e2e.test.ts",
  "packages/*/test/**/*.browser.test.ts",
  "examples/*/test/**/*.test.ts",
];
/**
 * Talks to a socket or PostgreSQL: the Node binding, the console and the PostgreSQL adapter as a
 * whole, and elsewhere any file named `*.integration.test.ts`.
 */
const integration = [
  "packages/http-node/test/**/*.test.ts",
  // The console's tests serve its pages over a socket (forms, cookies, redirects) through http-node.
  "packages/console/test/**/*.test.ts",
  "packages/adapter-postgres/test/**/*.test.ts",
  "packages/*/test/**/*.integration.test.ts",
];
/**
 * Replaces a module with `vi.mock` (node:dns, to hold getaddrinfo calls open). A mock reaches only
 * modules loaded after it, and the other projects share one module graph per worker
 * (`isolate: false`), so these files run in a project of their own that loads every file afresh.
 */
const replacesModules = ["packages/*/test/**/*.isolated.test.ts"];

const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
  more: { isolate?: boolean } = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, exclude: ["**/node_modules/**", ...exclude], ...more },
});

/**
 * Four projects, all run by `pnpm test` / `vitest run`; one alone with `vitest run --project unit`
 * (or `integration`, `isolated`, `e2e`). A test file belongs to exactly one: a new package's tests
 * are unit tests unless their name or folder says otherwise.
 */
export default defineConfig({
  resolve: { alias: vitrinaSourceAliases },
  test: {
    testTimeout: 30_000,
    // Most suites wait on PostgreSQL, child processes, sockets or a browser rather than compute, so
    // two files at a time overlap those waits even on a 2-core machine (vitest's default there is 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
    projects: [
      // Unit files share one module graph per worker instead of loading it afresh each: on this
      // 2-core machine the project took 85 s with isolation (98 s of imports, summed over both
      // workers) and 18 s without. They leave nothing process-wide behind (timers, listeners and the
      // OpenTelemetry SDK are restored by the file that changed them); three runs with the files
      // in shuffled order passed. A unit test that must change global state restores it.
      project("unit", ["packages/*/test/**/*.test.ts"], [...integration, ...endToEnd, ...replacesModules], {
        isolate: false,
      }),
      // The same for the integration files: the project took 433 s of a CI run's wall time with
      // isolation (a PostgreSQL adapter file spent 5–8 s importing before its first test) and 294 s
      // without. Environment changes are restored by the helper that makes them
      // (http-node/test/support/temp-pglite-env.ts).
      project("integration", integration, [...endToEnd, ...replacesModules], { isolate: false }),
      project("isolated", replacesModules),
      // And for the end-to-end files, whose work is in the processes and browser they start: 238 s
      // alone with isolation (40 s of imports), 174 s without, every file passing in shuffled order.
      project("e2e", endToEnd, replacesModules, { isolate: false }),
    ],
  },
});
