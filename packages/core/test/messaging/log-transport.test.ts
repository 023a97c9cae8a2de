import { describe, expect, it } from "vitest";
import { silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

describe("logMessagingTransport", () => {
  it("keeps only the last `keep` messages, oldest dropped first", async () => {
    const transport = logMessagingTransport(silentLogger, { keep: 3 });
    for (let i = 0; i < 5; i++) await transport.send({ channel: "whatsapp", to: `+5691111111${i}`, text: `hola ${i}` });
    expect(transport.sent.map((m) => m.text)).toEqual(["hola 2", "hola 3", "hola 4"]);
  });

  it("keeps 1000 by default", async () => {
    const transport = logMessagingTransport(silentLogger);
    for (let i = 0; i < 1005; i++) await transport.send({ channel: "whatsapp", to: "+56911111111", text: String(i) });
    expect(transport.sent).toHaveLength(1000);
    expect(transport.sent[0]?.text).toBe("5");
  });
});
