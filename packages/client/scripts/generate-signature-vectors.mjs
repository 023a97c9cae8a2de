// Regenerates test/signature-vectors.json. The expected signatures come from the `openssl`
// CLI, not from node:crypto or this package, so the tests check us against an independent HMAC.
// Run once and commit the output: `node scripts/generate-signature-vectors.mjs`.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const kib = JSON.stringify({ event: "lead.created", source_lead_id: "kib", metadata: { pad: "" } });
const cases = [
  { name: "empty body", secret: "whsec_test", timestamp: "1700000000", body: "" },
  {
    name: "ascii json",
    secret: "s3cr3t",
    timestamp: "1700000000000",
    body: '{"event":"lead.created","source_lead_id":"abc-1"}',
  },
  {
    name: "utf8 multibyte and emoji",
    secret: "s3cr3t",
    timestamp: "1700000000123",
    body: '{"name":"José Ñúñez 🏠","note":"日本語 ✓"}',
  },
  // Exactly 1024 bytes of UTF-8: the bench's body size.
  {
    name: "1 KiB body",
    secret: "conn_secret_7f1b",
    timestamp: "1731000000000",
    body: kib.replace('""', `"${"x".repeat(1024 - kib.length)}"`),
  },
  { name: "unicode secret", secret: "clé-secrète-🔑", timestamp: "1700000001", body: '{"id":"evt_1"}' },
  { name: "trailing newline", secret: "whsec_test", timestamp: "1700000002", body: '{"id":"evt_2"}\n' },
  { name: "CRLF line endings", secret: "whsec_test", timestamp: "1700000003", body: '{\r\n  "id": "evt_3"\r\n}\r\n' },
  {
    name: "long secret (> 64-byte HMAC block)",
    secret: "k".repeat(100),
    timestamp: "1700000004",
    body: "plain text, not JSON",
  },
];

for (const c of cases) {
  const out = execFileSync("openssl", ["dgst", "-sha256", "-hmac", c.secret], { input: `${c.timestamp}.${c.body}` });
  c.signature = out.toString().trim().split(" ").pop();
}
if (Buffer.byteLength(cases[3].body) !== 1024) throw new Error("1 KiB case is not 1024 bytes");

const doc =
  "Each case: signature = lowercase hex HMAC-SHA256, key = UTF-8 bytes of `secret`, message = UTF-8 bytes of `${timestamp}.${body}`. " +
  "Same input for lead signatures (X-Vitrina-Signature, timestamp in ms) and webhook v1 (t=<seconds>). Expected values computed with `openssl dgst -sha256 -hmac`.";
writeFileSync(
  new URL("../test/signature-vectors.json", import.meta.url),
  `${JSON.stringify({ _doc: doc, cases }, null, 2)}\n`,
);
console.log(`wrote ${cases.length} cases`);
