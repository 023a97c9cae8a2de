import { describe, it } from "vitest";
import { assertHostileBatchesHandled } from "./hostile-batch.js";
import { whatsAppHarness } from "./support.js";

describe("hostile signed batches (fast-check)", () => {
  it("U+0000, lone surrogates, 10 KB strings and wrong types in every field: 200 or a clean refusal, never 5xx, nothing half-written", async () => {
    await assertHostileBatchesHandled(await whatsAppHarness(), 150);
  });
});
