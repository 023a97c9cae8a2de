import { memoryStorage } from "@vitrina/adapter-memory";
import {
  ConflictError,
  ForbiddenError,
  InsufficientScopeError,
  NotFoundError,
  PayloadTooLargeError,
  PolicyBlockedError,
  VitrinaError,
} from "@vitrina/core";
import { describe, expect, it } from "vitest";
import { PolicyBlockedError as PolicyBlockedFromPolicies } from "../src/capabilities/policies.js";
import { readBodyLimited } from "../src/http/read-body.js";
import { statusForCode } from "../src/http/json.js";

describe("one error model", () => {
  it.each([
    [new ConflictError("taken"), "conflict", 409],
    [new ForbiddenError("not a member"), "forbidden", 403],
    [new InsufficientScopeError("needs leads:write"), "insufficient_scope", 403],
    [new NotFoundError("no such quote"), "not_found", 404],
    [new PayloadTooLargeError("too big"), "payload_too_large", 413],
    [new PolicyBlockedError("contacts.update", "needs a person", "task_1"), "policy_blocked", 403],
  ])("%s fixes its own code and keeps its status", (error, code, status) => {
    expect(error).toBeInstanceOf(VitrinaError);
    expect(error.code).toBe(code);
    expect(statusForCode(error.code)).toBe(status);
  });

  it("keeps PolicyBlockedError importable from where it used to live", () => {
    expect(PolicyBlockedFromPolicies).toBe(PolicyBlockedError);
  });

  it("answers 413 for a body stream a server binding capped, matched by code, not by name", async () => {
    // What a second copy of core in node_modules would raise: same code, another class.
    const foreign = Object.assign(new Error("request body exceeds the limit of 10 bytes"), {
      code: "payload_too_large",
    });
    const body = new ReadableStream({ pull: (controller) => controller.error(foreign) });
    const request = new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBodyLimited(request, 1000)).rejects.toMatchObject({ code: "payload_too_large", cause: foreign });
  });

  it("answers 400 for any other failure of the body stream", async () => {
    const body = new ReadableStream({ pull: (controller) => controller.error(new Error("socket hang up")) });
    const request = new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBodyLimited(request, 1000)).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("reports a closed memory storage as storage_unavailable, not a bare Error", async () => {
    const storage = memoryStorage();
    await storage.close();
    await expect(storage.transaction(async () => {})).rejects.toMatchObject({ code: "storage_unavailable" });
  });
});
