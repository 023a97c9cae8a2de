import { describe, expect, it } from "vitest";
import { VitrinaError } from "../../src/errors.js";
import { runTool, type ToolDefinition } from "../../src/mcp/tool-definition.js";
import type { Logger } from "../../src/ports/logger.js";

// An `internal` error's message is for the operator: it may name a connector, a key or a schema
// mismatch. An agent gets the same generic words as for any other bug; the log keeps the detail.
function recordingLogger() {
  const errors: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const noop = () => {};
  const logger: Logger = {
    debug: noop,
    info: noop,
    warn: noop,
    error: (fields: unknown, message?: string) =>
      errors.push({ fields: fields as Record<string, unknown>, message: message ?? "" }),
  } as Logger;
  return { logger, errors };
}

function failingTool(error: unknown): ToolDefinition {
  return {
    name: "probe",
    title: "Probe",
    description: "fails",
    inputSchema: { type: "object" },
    outputSchema: { type: "object" },
    annotations: {},
    scope: { requiredScopes: [], scopeMatch: "allOf" },
    run: () => Promise.reject(error),
  };
}

const context = { principal: { kind: "static" as const, workspaceId: "w", keyId: "k", scopes: [] }, meta: undefined };

describe("MCP tool errors", () => {
  it("answers an internal VitrinaError without its message, and logs the message", async () => {
    const { logger, errors } = recordingLogger();
    const detail = "the secret of connector c-123 cannot be opened; an operator must check the secret box key";
    const result = await runTool(failingTool(new VitrinaError("internal", detail)), {}, context, logger);
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: "probe failed because of an internal error" }],
      _meta: { "vitrina/error": { code: "internal" } },
    });
    expect(errors).toEqual([
      { fields: expect.objectContaining({ code: "internal", error: detail }), message: "mcp tool failed" },
    ]);
  });

  it("keeps the message of errors an agent can act on", async () => {
    const { logger, errors } = recordingLogger();
    const refused = new VitrinaError("not_found", "contact c-1 does not exist");
    const result = await runTool(failingTool(refused), {}, context, logger);
    expect(result.content).toEqual([{ type: "text", text: "contact c-1 does not exist" }]);
    expect(errors).toEqual([]);
  });
});
