import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The README's stdlib-only verifiers for Python and Go, taken from the README itself (so the
// documented code is the tested code) and run against the shared signature vectors. Each case
// must verify with the right secret among others, and fail with a changed body or a wrong secret.
const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const vectorsPath = fileURLToPath(new URL("./signature-vectors.json", import.meta.url));
const vectors = (JSON.parse(readFileSync(vectorsPath, "utf8")) as { cases: unknown[] }).cases;

function snippet(language: string): string {
  const section = readme.slice(readme.indexOf("## Receivers in other languages"));
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(section);
  if (!match) throw new Error(`no ${language} snippet in the client README`);
  return match[1]!;
}

function available(command: string, versionFlag: string): boolean {
  const ok = spawnSync(command, [versionFlag], { stdio: "ignore" }).status === 0;
  if (!ok) console.warn(`skipping the ${command} snippet: \`${command}\` is not on this machine`);
  return ok;
}

const dir = mkdtempSync(join(tmpdir(), "vitrina-snippets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Per case: [right secret, changed body, wrong secret only], as the program printed them. */
const expected = vectors.map(() => "true false false").join("\n");

describe.runIf(available("python3", "--version"))("the README's Python verifier", () => {
  it("verifies every signature vector and refuses a changed body or a wrong secret", () => {
    const program = `${snippet("python")}
import json, sys
for c in json.load(open(sys.argv[1], encoding="utf-8"))["cases"]:
    body, header, t = c["body"].encode(), f"t={c['timestamp']},v1={c['signature']}", int(c["timestamp"])
    print(verify_vitrina_webhook(body, header, ["previous-secret", c["secret"]], now=t),
          verify_vitrina_webhook(body + b" ", header, [c["secret"]], now=t),
          verify_vitrina_webhook(body, header, ["previous-secret"], now=t))
    assert not verify_vitrina_webhook(body, header, [c["secret"]], now=t + 301)
`;
    writeFileSync(join(dir, "verify.py"), program);
    const output = execFileSync("python3", [join(dir, "verify.py"), vectorsPath], { encoding: "utf8" });
    expect(output.trim().toLowerCase()).toBe(expected);
  });
});

describe.runIf(available("go", "version"))("the README's Go verifier", () => {
  it("verifies every signature vector and refuses a changed body or a wrong secret", () => {
    writeFileSync(join(dir, "go.mod"), "module verify\n\ngo 1.21\n");
    writeFileSync(join(dir, "verify.go"), snippet("go").replace("package vitrina", "package main"));
    writeFileSync(
      join(dir, "main.go"),
      `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	var vectors struct{ Cases []struct{ Secret, Timestamp, Body, Signature string } }
	data, _ := os.ReadFile(os.Args[1])
	if err := json.Unmarshal(data, &vectors); err != nil {
		panic(err)
	}
	for _, c := range vectors.Cases {
		t, _ := strconv.ParseInt(c.Timestamp, 10, 64)
		now, header, tolerance := time.Unix(t, 0), "t="+c.Timestamp+",v1="+c.Signature, 300*time.Second
		fmt.Println(VerifyWebhook([]byte(c.Body), header, []string{"previous-secret", c.Secret}, tolerance, now),
			VerifyWebhook([]byte(c.Body+" "), header, []string{c.Secret}, tolerance, now),
			VerifyWebhook([]byte(c.Body), header, []string{"previous-secret"}, tolerance, now))
		if VerifyWebhook([]byte(c.Body), header, []string{c.Secret}, tolerance, now.Add(301*time.Second)) {
			panic("accepted a timestamp outside the tolerance")
		}
	}
}
`,
    );
    const output = execFileSync("go", ["run", ".", vectorsPath], { cwd: dir, encoding: "utf8" });
    expect(output.trim()).toBe(expected);
  }, 120_000);
});
