#!/usr/bin/env node
// After a package's build: the notices of every third-party package esbuild bundled into its dist/
// (read from the `// node_modules/...` path comments it leaves above each bundled module), written
// to dist/THIRD_PARTY_NOTICES.md, so the published tarball carries the licenses of the code it ships.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const packageDir = resolve(process.argv[2] ?? ".");
const dist = join(packageDir, "dist");
const jsFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? jsFiles(join(dir, entry.name)) : entry.name.endsWith(".js") ? [join(dir, entry.name)] : [],
  );

const bundled = new Map();
for (const file of jsFiles(dist)) {
  for (const [, path] of readFileSync(file, "utf8").matchAll(
    /^\/\/ ((?:\.\.\/)*node_modules\/\.pnpm\/[^/]+\/node_modules\/(?:@[^/]+\/)?[^/]+)\//gm,
  )) {
    const dir = resolve(packageDir, path); // relative to where the build ran
    if (!bundled.has(dir)) bundled.set(dir, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")));
  }
}

const licenseText = (dir) => {
  const name = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\..*)?$/i.test(file));
  return name === undefined ? null : readFileSync(join(dir, name), "utf8").trim();
};
const sections = [...bundled.entries()]
  .sort(([, a], [, b]) => a.name.localeCompare(b.name))
  .map(([dir, manifest]) => {
    const text = licenseText(dir);
    return `## ${manifest.name}@${manifest.version} (${manifest.license})\n\n${text === null ? "(no license file in the package)" : "```text\n" + text + "\n```"}`;
  });
const notices = `# Third-party code bundled into this package\n\nThese packages are part of this package's build (not installed as dependencies). Their licenses:\n\n${sections.join("\n\n")}\n`;
if (!existsSync(dist)) throw new Error(`${dist} does not exist: build first`);
writeFileSync(join(dist, "THIRD_PARTY_NOTICES.md"), notices);
console.log(`bundled-licenses: ${bundled.size} packages noted in ${join(dist, "THIRD_PARTY_NOTICES.md")}`);
