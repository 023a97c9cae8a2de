import { readFileSync } from "node:fs";
import { silentLogger } from "@vitrina/core";
import { serve } from "@vitrina/http-node";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { createDemo, surfacesFromEnv } from "../src/demo.mjs";

const README = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

/** The README tour's `curl` lines for REST and A2A (continuations joined), taken apart. */
function tourCurls() {
  const block = /One call of each[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(README)?.[1];
  if (block === undefined) throw new Error("the README's REST and A2A tour block is missing");
  return block
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter((line) => line.startsWith("curl "))
    .map((line) => ({
      method: line.includes("-X POST") ? "POST" : "GET",
      path: /http:\/\/127\.0\.0\.1:8787(\S+)/.exec(line)![1]!,
      headers: Object.fromEntries([...line.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((m) => [m[1]!, m[2]!])),
      body: /-d '([^']+)'/.exec(line)?.[1],
    }));
}

async function withDemo(env: Record<string, string>, use: (url: string, apiKey: string) => Promise<void>) {
  const demo = await createDemo({ env: { VITRINA_STORAGE: "memory", ...env }, logger: silentLogger, memory: true });
  const server = await serve(demo.vitrina.handler, { port: 0, handleSignals: false });
  try {
    await use(server.url, demo.apiKey);
  } finally {
    await server.close();
    await demo.vitrina.close();
  }
}

describe("demo REST and A2A switches", () => {
  it("reads VITRINA_REST and VITRINA_A2A", () => {
    expect(surfacesFromEnv({})).toEqual({});
    expect(surfacesFromEnv({ VITRINA_REST: "1", VITRINA_A2A: "1" })).toEqual({
      rest: { enabled: true },
      a2a: { enabled: true },
    });
    expect(surfacesFromEnv({ VITRINA_REST: "0", VITRINA_A2A: "" })).toEqual({});
  });

  it("answers the README's REST and A2A calls with VITRINA_REST=1 VITRINA_A2A=1, the same output on both", async () => {
    const curls = tourCurls();
    expect(curls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /v1/rest/catalog.search",
      "GET /.well-known/agent-card.json",
      "POST /a2a",
    ]);
    await withDemo({ VITRINA_REST: "1", VITRINA_A2A: "1" }, async (url, apiKey) => {
      const answers = [];
      for (const curl of curls) {
        const headers = Object.fromEntries(
          Object.entries(curl.headers).map(([name, value]) => [name, value.replace("$KEY", apiKey)]),
        );
        const response = await fetch(`${url}${curl.path}`, { method: curl.method, headers, body: curl.body });
        expect({ path: curl.path, status: response.status }).toEqual({ path: curl.path, status: 200 });
        answers.push((await response.json()) as any);
      }
      const [rest, card, a2a] = answers;
      expect(rest.output).toHaveLength(1);
      expect(card.skills.map((s: { id: string }) => s.id)).toContain("catalog.search");
      expect(a2a.result.message.parts[0].data).toEqual(rest.output);
    });
  });

  it("leaves both off by default: 404", async () => {
    await withDemo({}, async (url, apiKey) => {
      const auth = { authorization: `Bearer ${apiKey}` };
      expect((await fetch(`${url}/v1/rest/catalog.search`, { headers: auth })).status).toBe(404);
      expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(404);
      expect((await fetch(`${url}/a2a`, { method: "POST", headers: auth, body: "{}" })).status).toBe(404);
    });
  });
});
