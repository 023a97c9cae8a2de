import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

beforeAll(() => {
  // Build once if needed, so `pnpm vitest run packages/client` is enough on a fresh clone.
  if (!existsSync(`${packageDir}/dist/node.js`))
    execFileSync("pnpm", ["run", "build"], { cwd: packageDir, stdio: "ignore" });
});

it("the built dist/node.js and dist/index.js work from a plain Node ESM script", () => {
  const output = execFileSync(process.execPath, ["scripts/smoke-built.mjs"], { cwd: packageDir, encoding: "utf8" });
  expect(output).toContain("ok dist/node.js");
  expect(output).toContain("ok dist/index.js has no node: imports");
});
