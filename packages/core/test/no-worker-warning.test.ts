import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Logger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { afterEach, describe, expect, it, vi } from "vitest";

// The quickstart trap: `serve(vitrina.handler)` alone answers 201 to a subscription and never delivers.
const SECRET_BOX_KEY = Buffer.alloc(32, 7).toString("base64");
const subscription = {
  url: "https://receiver.example.com/hooks",
  events: ["conversation.started"],
  secret: "8f2c4a9e1b7d3f6a0c5e2b8d4f1a7c3e",
};

function recordingLogger() {
  const warnings: string[] = [];
  const warn = (first: string | Record<string, unknown>, second?: string) =>
    void warnings.push(typeof first === "string" ? first : (second ?? ""));
  const logger: Logger = { ...silentLogger, warn: warn as Logger["warn"] };
  return { logger, warnings };
}

async function vitrinaWithWorkspace(options: Partial<VitrinaOptions> = {}) {
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    ...options,
  });
  const workspace = await vitrina.workspaces.create({ name: "w", ownerUserId: "owner" });
  return { vitrina, workspaceId: workspace.id };
}

afterEach(() => vi.restoreAllMocks());

describe("a subscription created with no outbox worker in the process", () => {
  it("warns once, naming the fix", async () => {
    const { logger, warnings } = recordingLogger();
    const { vitrina, workspaceId } = await vitrinaWithWorkspace({ logger });
    await vitrina.webhooks.create(workspaceId, subscription);
    await vitrina.webhooks.create(workspaceId, subscription);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /no outbox worker runs in this process.*serveVitrina\(\) or startWorker\(\).*vitrina worker/,
    );
  });

  it("reaches the console when no logger is configured", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { vitrina, workspaceId } = await vitrinaWithWorkspace();
    await vitrina.webhooks.create(workspaceId, subscription);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^vitrina: .*no outbox worker/);
  });

  it("stays quiet when a worker runs here, or when webhooks.externalWorker says one runs elsewhere", async () => {
    const running = recordingLogger();
    const withWorker = await vitrinaWithWorkspace({ logger: running.logger });
    const worker = withWorker.vitrina.outbox.startWorker();
    await withWorker.vitrina.webhooks.create(withWorker.workspaceId, subscription);
    await worker.stop();
    expect(running.warnings.filter((w) => w.includes("no outbox worker"))).toEqual([]);

    const external = recordingLogger();
    const elsewhere = await vitrinaWithWorkspace({ logger: external.logger, webhooks: { externalWorker: true } });
    await elsewhere.vitrina.webhooks.create(elsewhere.workspaceId, subscription);
    expect(external.warnings).toEqual([]);
  });
});
