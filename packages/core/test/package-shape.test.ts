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

  it("core takes zod 4 as a peer dependency, not a dependency of its own", () => {
    const core = manifest("core");
    expect(core.dependencies.zod).toBeUndefined();
    expect(core.peerDependencies.zod).toBe("^4.1.0");
    expect(core.devDependencies.zod).toBe("^4.1.0");
  });
});
