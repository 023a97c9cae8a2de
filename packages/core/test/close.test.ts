import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

describe("vitrina.close()", () => {
  it("makes every route answer 503 shutting_down with Retry-After, never a 500 from closed storage", async () => {
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 7).toString("base64"),
    });
    expect((await vitrina.handler(new Request("http://app.test/v1/capabilities"))).status).toBe(200);
    await vitrina.close();
    for (const request of [
      new Request("http://app.test/v1/capabilities"),
      new Request("http://app.test/functions/v1/lead-intake", {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
      new Request("http://app.test/v1/webhooks", { headers: { authorization: "Bearer vtr_live_x" } }),
    ]) {
      const response = await vitrina.handler(request);
      expect(response.status, request.url).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("shutting_down");
    }
  });
});
