import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Core's folders are layers: the foundation (errors, validation, ports, crypto, logging, telemetry's
// plumbing) knows no feature, and a feature's knowledge stays in that feature. An import that runs
// up a layer is how knowledge drifted from its owner before (auth reading capability types,
// capabilities reading the phone schema from lead intake); this walks every relative import of
// core's sources and names each one that does.
const srcDir = fileURLToPath(new URL("../src/", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The top-level folder (or root file) a source path belongs to: `auth`, `errors.ts`. */
const areaOf = (path: string) => relative(srcDir, path).split("/")[0]!;

/** Every relative import of every source file, as `[from area, to area, file]`. */
const edges = sourceFiles(srcDir).flatMap((file) => {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => {
    const target = join(file, "..", specifier).replace(/\.js$/, ".ts");
    return { from: areaOf(file), to: areaOf(target), file: relative(srcDir, file), specifier };
  });
});

const FOUNDATION = new Set([
  "errors.ts",
  "validation.ts",
  "validation-reasons.ts",
  "within-deadline.ts",
  "validation",
  "ports",
  "crypto",
  "logging",
  "telemetry",
]);

/** The imports out of `areas` that go anywhere but `allowed` (or the area itself). */
function violations(areas: string[], allowed: Set<string>) {
  return edges
    .filter((e) => areas.includes(e.from) && e.to !== e.from && !allowed.has(e.to))
    .map((e) => `${e.file} imports ${e.specifier}`);
}

describe("core's import layers", () => {
  it("reads imports from every source file (the walk itself works)", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(expect.objectContaining({ from: "leads", to: "validation" }));
  });

  it("the foundation imports nothing but the foundation", () => {
    expect(violations([...FOUNDATION], FOUNDATION)).toEqual([]);
  });

  it("auth depends only on the foundation and workspace roles, never on a capability or a surface", () => {
    expect(violations(["auth"], new Set([...FOUNDATION, "workspaces"]))).toEqual([]);
  });

  it("capabilities never reach into lead intake: shared schemas live in validation/", () => {
    expect(edges.filter((e) => e.from === "capabilities" && e.to === "leads").map((e) => e.file)).toEqual([]);
  });

  it("telemetry keeps only the plumbing: each feature owns its own spans and counters", () => {
    expect(readdirSync(join(srcDir, "telemetry")).sort()).toEqual(["metrics.ts", "tracing.ts"]);
  });
});
