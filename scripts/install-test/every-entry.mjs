// ESM: `import` every entry point the installed @vitrina/* packages export.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { entryPoints } from "./entry-points.cjs";

const loaded = [];
for (const specifier of entryPoints(createRequire(import.meta.url), readFileSync)) {
  const module = await import(specifier);
  if (Object.keys(module).length === 0) throw new Error(`${specifier} exports nothing`);
  loaded.push(specifier);
}
console.log(`import: ${loaded.length} entry points (${loaded.join(", ")})`);
