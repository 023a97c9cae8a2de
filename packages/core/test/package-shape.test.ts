import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What a user installs: every package carries its license text, and core leaves zod to the app
// (one zod in the app, so the app's schemas are the ones core reads).
const packagesDir = fileURLToPath(new URL("../../", import.meta.url));
const packages = readdirSync(packagesDir).filter((name) => existsSync(join(packagesDir, name, "package.json")));
const manifest = (name: string) => JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8"));

describe("published package shape", () => {
  it.each(packages)("%s ships a LICENSE matching its license field", (name) => {
    expect(manifest(name).license).toBe("MIT");
    expect(readFileSync(join(packagesDir, name, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
  });

  // Item 2 of issue 46: exports with only an `import` condition made `require()` fail with
  // ERR_PACKAGE_PATH_NOT_EXPORTED in CommonJS apps. `pnpm test:install` requires the packed builds.
  it.each(packages)("%s: every export has types first and a default condition CommonJS can require", (name) => {
    for (const [subpath, target] of Object.entries(manifest(name).exports as Record<string, unknown>)) {
      if (typeof target === "string") continue; // ./package.json
      const conditions = Object.keys(target as object);
      expect(conditions[0], `${name} ${subpath}`).toBe("types");
      expect(conditions, `${name} ${subpath}`).toContain("default");
      expect(conditions, `${name} ${subpath}`).not.toContain("require"); // one build: no dual-package hazard
    }
  });

  it.each(packages)("%s is ready to publish: public, with provenance, files listed, its folder named", (name) => {
    const pkg = manifest(name);
    expect(pkg.publishConfig).toEqual({ access: "public", provenance: true });
    expect(pkg.files).toContain("dist");
    expect(pkg.repository).toMatchObject({ type: "git", directory: `packages/${name}` });
  });

  it("core bundles the MCP SDK instead of installing it (and Express, Hono, … with it)", () => {
    expect(manifest("core").dependencies["@modelcontextprotocol/sdk"]).toBeUndefined();
  });

  it("core takes zod 4 as a peer dependency, not a dependency of its own", () => {
    const core = manifest("core");
    expect(core.dependencies.zod).toBeUndefined();
    expect(core.peerDependencies.zod).toBe("^4.1.0");
    expect(core.devDependencies.zod).toBe("^4.1.0");
  });
});
