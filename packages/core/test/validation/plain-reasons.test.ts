import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "@vitrina/core";
import { parseOrThrow } from "@vitrina/core/http";

function reasonsFor(schema: z.ZodType, input: unknown) {
  try {
    parseOrThrow(schema, input, "input");
  } catch (error) {
    if (error instanceof ValidationError) return error.reasons;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("parseOrThrow words zod's issues plainly", () => {
  const schema = z.strictObject({
    name: z.string().min(1).max(5),
    count: z.number().int().min(0),
    ratio: z.number().gt(0),
    kind: z.enum(["a", "b"]),
    fixed: z.literal("x"),
    tags: z.array(z.string()).min(2),
    email: z.email().optional(),
    flag: z.boolean().optional(),
    worded: z.string({ error: "is required: the schema says so itself" }),
  });

  it("says a missing field is required and a mistyped one what it must be, instead of 'Invalid input: expected …'", () => {
    expect(reasonsFor(schema, { count: "3", ratio: null, tags: "t", flag: 1, extra: true })).toEqual([
      { field: "name", reason: "is required" },
      { field: "count", reason: "must be a number, not a string" },
      { field: "ratio", reason: "must be a number, not null" },
      { field: "kind", reason: "is required" },
      { field: "fixed", reason: "is required" },
      { field: "tags", reason: "must be an array, not a string" },
      { field: "flag", reason: "must be true or false, not a number" },
      { field: "worded", reason: "is required: the schema says so itself" },
      { field: "extra", reason: "is not a recognised field" },
    ]);
  });

  it("words sizes, options and formats", () => {
    expect(
      reasonsFor(schema, {
        name: "",
        count: 1.5,
        ratio: 0,
        kind: "c",
        fixed: "y",
        tags: ["t"],
        email: "nope",
        worded: "ok",
      }),
    ).toEqual([
      { field: "name", reason: "must not be empty" },
      { field: "count", reason: "must be a whole number, not a fractional number" },
      { field: "ratio", reason: "must be greater than 0" },
      { field: "kind", reason: 'must be one of "a", "b"' },
      { field: "fixed", reason: 'must be "x"' },
      { field: "tags", reason: "must have at least 2 items" },
      { field: "email", reason: "must be an email address" },
    ]);
    expect(
      reasonsFor(schema, {
        name: "toolong",
        count: -1,
        ratio: 1,
        kind: "a",
        fixed: "x",
        tags: ["a", "b"],
        worded: "ok",
      }),
    ).toEqual([
      { field: "name", reason: "must be at most 5 characters" },
      { field: "count", reason: "must be at least 0" },
    ]);
  });

  it("says a number beyond the largest double (1e400 in JSON parses to Infinity) is too large, not fractional", () => {
    const parsed = JSON.parse('{"count": 1e400, "ratio": -1e400}') as Record<string, unknown>;
    expect(reasonsFor(z.object({ count: z.number().int(), ratio: z.number() }), parsed)).toEqual([
      { field: "count", reason: `is too large: a number must lie within ±${Number.MAX_VALUE}` },
      { field: "ratio", reason: `is too large: a number must lie within ±${Number.MAX_VALUE}` },
    ]);
  });

  it("leaves the application's global zod configuration alone", () => {
    expect(z.string().safeParse(undefined).error?.issues[0]?.message).toBe(
      "Invalid input: expected string, received undefined",
    );
  });
});
