import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Vitrina } from "@vitrina/core";
import { vitrinaConsole } from "@vitrina/console";
import { routesOf } from "../../src/vitrina.js";
import { restVitrina } from "./openapi-types.js";

/** A Vitrina with every optional surface on: OAuth, REST, A2A, the console, health checks. */
const everySurface = (): Vitrina =>
  restVitrina({
    a2a: { enabled: true },
    health: true,
    oauth: { authorize: async () => ({ userId: "u", workspaceId: "w", grantedScopes: [] }) },
    console: vitrinaConsole({ signIn: async () => null }),
  });

describe("every route documents itself", () => {
  let vitrina: Vitrina;
  let document: {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  };

  beforeAll(async () => {
    vitrina = everySurface();
    document = await (await vitrina.handler(new Request("http://vitrina.test/v1/openapi.json"))).json();
  });
  afterAll(() => vitrina.close());

  it("carries OpenAPI metadata, or says with a reason why it is left out", () => {
    const routes = routesOf(vitrina);
    expect(routes.length).toBeGreaterThan(60);
    const silent = routes.filter((route) => route.openapi === undefined).map((r) => `${r.method} ${r.path}`);
    expect(silent, "routes with neither `openapi` nor `openapi: false`").toEqual([]);
    const unexplained = routes
      .filter(
        (route) =>
          route.openapi === false && !(typeof route.undocumented === "string" && route.undocumented.length > 10),
      )
      .map((r) => `${r.method} ${r.path}`);
    expect(unexplained, "routes left out without a reason in `undocumented`").toEqual([]);
  });

  it("has one operation in the document for each documented route, the admin API included", () => {
    const documented = routesOf(vitrina).filter(
      (route) => route.openapi !== false && route.openapi !== undefined && !("expand" in route.openapi),
    );
    for (const route of documented) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
    for (const path of ["/v1/admin/me", "/v1/connectors/{id}/rotate", "/v1/api-keys/{id}", "/v1/privacy/erasures"]) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size, "operation ids are unique").toBe(ids.length);
  });

  it("lists the 503 every route may answer while closing or when storage is unavailable", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain("503");
      }
    }
  });

  it("passes `redocly lint` with the recommended ruleset, without an error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vitrina-openapi-"));
    try {
      const file = join(dir, "openapi.json");
      await writeFile(file, JSON.stringify(document));
      const config = join(dir, "redocly.yaml");
      await writeFile(config, "extends:\n  - recommended\n");
      const bin = join(process.cwd(), "node_modules", ".bin", "redocly");
      const result = await promisify(execFile)(bin, ["lint", file, "--config", config, "--format", "json"], {
        maxBuffer: 32 * 1024 * 1024,
        // No usage report or update check: the lint must not depend on the network.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
      const report = JSON.parse(result.stdout ?? "{}") as {
        totals?: { errors: number; warnings: number };
        problems?: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
      };
      const errors = (report.problems ?? [])
        .filter((problem) => problem.severity === "error")
        .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
      expect(report.totals, result.stderr).toBeDefined();
      expect(errors).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
