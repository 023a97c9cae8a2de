import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toCatalogJsonSchema, withoutTypeArrays } from "../../src/capabilities/json-schema.js";

describe("nullable fields as anyOf, never type arrays", () => {
  it("keeps each type's constraints on its branch and annotations on the node", () => {
    expect(withoutTypeArrays({ type: ["string", "null"], maxLength: 5, description: "a name" })).toEqual({
      description: "a name",
      anyOf: [{ type: "string", maxLength: 5 }, { type: "null" }],
    });
    expect(withoutTypeArrays({ type: ["integer"], minimum: 0 })).toEqual({ type: "integer", minimum: 0 });
  });

  it("rewrites zod's output at any depth, and what it already wrote as anyOf stays", () => {
    const schema = toCatalogJsonSchema(
      z.strictObject({
        a: z.string().max(3).nullable(),
        list: z.array(z.strictObject({ n: z.number().nullable() })),
        e: z.enum(["x"]).nullable(),
      }),
      "output",
    ) as any;
    expect(schema.properties.a).toEqual({ anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] });
    expect(schema.properties.list.items.properties.n).toEqual({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(schema.properties.e).toEqual({ anyOf: [{ type: "string", enum: ["x"] }, { type: "null" }] });
  });
});
