import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// An app importing only `verifyWebhook` must not carry `sendLead` and lead signing: bundled with
// esbuild (tsup's bundler, resolved through tsup), from each entry's sources.
// esbuild is not a direct devDependency, so its types don't resolve here: the part this test uses.
type Esbuild = { build(options: Record<string, unknown>): Promise<{ outputFiles: Array<{ text: string }> }> };
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsup"))("esbuild") as Esbuild;
const entry = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

async function bundle(file: string, names: string): Promise<string> {
  const result = await esbuild.build({
    stdin: {
      contents: `export { ${names} } from ${JSON.stringify(entry(file))};`,
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: file === "node.ts" ? "node" : "neutral",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

describe.each(["index.ts", "node.ts"])("tree-shaking the %s entry", (file) => {
  it("leaves sendLead and lead signing out of a bundle that imports verifyWebhook alone", async () => {
    const onlyVerify = await bundle(file, "verifyWebhook");
    expect(onlyVerify).toContain("timestamp_outside_tolerance");
    expect(onlyVerify).not.toContain("lead intake unreachable");
    expect(onlyVerify).not.toContain("Connector-Id");
    const everything = await bundle(file, "verifyWebhook, sendLead");
    expect(everything).toContain("lead intake unreachable");
    expect(onlyVerify.length).toBeLessThan(everything.length * 0.9);
  });
});
