// CommonJS: `require()` every entry point the installed @vitrina/* packages export (Node >= 20.19
// loads their ESM build through require(esm)).
const { readFileSync } = require("node:fs");
const { entryPoints } = require("./entry-points.cjs");

const loaded = [];
for (const specifier of entryPoints(require, readFileSync)) {
  const module = require(specifier);
  if (Object.keys(module).length === 0) throw new Error(`${specifier} exports nothing`);
  loaded.push(specifier);
}
console.log(`require: ${loaded.length} entry points (${loaded.join(", ")})`);
