import express from "express";
import { toNodeListener, BodyAlreadyConsumedError } from "@vitrina/http-node";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs example.
import { createExpressApp } from "../express/app.mjs";
import { expectMcpOAuthFlow, expectVitrinaServed, listen, oauthDemo, quietDemo, sendSignedLead } from "./support.js";

let server: Awaited<ReturnType<typeof listen>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Express 5 (examples/frameworks/express)", () => {
  it("serves leads, the catalog and MCP under /vitrina, and the app's own JSON routes still parse", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    server = await listen(createExpressApp(demo.vitrina));
    await expectVitrinaServed(`${server.url}/vitrina`, demo);
    const note = await fetch(`${server.url}/api/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await note.json()).toEqual({ saved: { a: 1 } });
  });

  it("answers at once with body_already_consumed and logs the fix when express.json() runs first", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    const reported: unknown[] = [];
    const app = express();
    app.use(express.json());
    app.use("/vitrina", toNodeListener(demo.vitrina.handler, { onError: (error) => reported.push(error) }));
    server = await listen(app);

    // No timeout needed: before the fix this request hung until the server's request timeout.
    const response = await sendSignedLead(`${server.url}/vitrina`, demo);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("body_already_consumed");
    expect(body.error.message).toMatch(/mount Vitrina before body parsers \(express\.json\(\)/);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(BodyAlreadyConsumedError);
    expect((reported[0] as Error).message).toContain("POST /functions/v1/lead-intake");

    // A GET carries no body: the catalog still answers behind the parser.
    expect((await fetch(`${server.url}/vitrina/v1/capabilities`)).status).toBe(200);
  });

  it("an MCP client discovers OAuth from the 401, registers, authorizes and lists tools, all under /vitrina", async () => {
    const demo = await oauthDemo();
    server = await listen(createExpressApp(demo.vitrina));
    await expectMcpOAuthFlow(server.url);
  });
});
