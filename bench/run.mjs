// `pnpm bench`: runs every bench/*.bench.mjs against the built packages, one after another on the
// same machine, and prints each one's figures side by side with its baseline.
// A bench module exports `name` and `async run()` returning rows: [{ case, value, unit, note? }].
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => !only || f.includes(only))
  .sort();

console.log(`vitrina bench on node ${process.version}, ${new Date().toISOString()}`);
for (const file of files) {
  const mod = await import(pathToFileURL(`${dir}/${file}`).href);
  console.log(`\n## ${mod.name ?? file}`);
  const started = performance.now();
  const rows = await mod.run();
  const width = Math.max(...rows.map((r) => r.case.length));
  for (const row of rows) {
    const value =
      typeof row.value === "number" ? row.value.toLocaleString("en-US", { maximumFractionDigits: 2 }) : row.value;
    console.log(
      `  ${row.case.padEnd(width)}  ${String(value).padStart(14)} ${row.unit ?? ""}${row.note ? `  (${row.note})` : ""}`,
    );
  }
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
