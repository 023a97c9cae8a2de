import { childLogger, defaultLogger, silentLogger, type LogFields, type Logger } from "@vitrina/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capturePino } from "./support.js";

afterEach(() => vi.restoreAllMocks());

describe("Logger port", () => {
  it("takes a real pino instance as is, and pino receives the structured fields", () => {
    const { logger, lines } = capturePino();
    const port: Logger = logger;
    port.warn({ code: "invalid_signature", connectorId: "c-1" }, "lead rejected");
    port.info("message only");
    childLogger(port, { requestId: "req-1" }).error({ cause: "boom" }, "failed");
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: "lead rejected", code: "invalid_signature", connectorId: "c-1" }),
      expect.objectContaining({ level: 30, msg: "message only" }),
      expect.objectContaining({ level: 50, msg: "failed", cause: "boom", requestId: "req-1" }),
    ]);
  });

  it("merges bindings itself for a logger without child()", () => {
    const seen: Array<[LogFields, string]> = [];
    const record = ((fields: LogFields, message: string) => void seen.push([fields, message])) as Logger["info"];
    const plain: Logger = { debug: record, info: record, warn: record, error: record };
    const scoped = childLogger(plain, { requestId: "req-2" });
    scoped.info({ leadEventId: "l-1" }, "lead accepted");
    scoped.warn("bare");
    expect(seen).toEqual([
      [{ requestId: "req-2", leadEventId: "l-1" }, "lead accepted"],
      [{ requestId: "req-2" }, "bare"],
    ]);
  });

  it("by default writes warnings and errors to stderr as JSON lines, and nothing below", () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    const stdout = vi.spyOn(console, "log").mockImplementation(() => {});
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const scoped = childLogger(defaultLogger, { requestId: "req-3" });
    scoped.debug({ a: 1 }, "hidden");
    scoped.info("hidden too");
    scoped.warn({ code: "unknown_connector" }, "lead rejected");
    scoped.error("internal");
    expect(stdout).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
    const written = stderr.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(written).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "lead rejected",
        code: "unknown_connector",
        requestId: "req-3",
        time: expect.any(String),
      }),
      expect.objectContaining({ level: "error", msg: "internal", requestId: "req-3" }),
    ]);
  });

  it("silentLogger writes nothing anywhere", () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    silentLogger.error({ x: 1 }, "nothing");
    childLogger(silentLogger, { requestId: "r" }).warn("nothing");
    expect(stderr).not.toHaveBeenCalled();
  });
});
