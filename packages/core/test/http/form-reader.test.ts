import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isVitrinaError } from "../../src/errors.js";
import { readFormBody } from "../../src/http/read-form.js";
import { readOAuthForm } from "../../src/oauth/oauth-http.js";
import { isStorableText } from "../../src/validation/storable-text.js";
import { hostileString, percentEncode } from "../support/hostile-strings.js";

// One form reader for OAuth's posts and the console's: the same UTF-8 rule, the same limit, the
// same refusal of values PostgreSQL can't store, each told the way its protocol tells errors.
const FORM = "application/x-www-form-urlencoded";
const post = (body: BodyInit, type: string | null = FORM) =>
  new Request("http://vitrina.test/form", {
    method: "POST",
    body,
    headers: type === null ? {} : { "content-type": type },
  });

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("readFormBody", () => {
  it("reads fields, keeping repeated names, with a charset parameter on the type", async () => {
    const form = await readFormBody(post("a=1&b=caf%C3%A9&a=2", `${FORM}; charset=UTF-8`));
    expect(form.getAll("a")).toEqual(["1", "2"]);
    expect(form.get("b")).toBe("café");
  });

  it("refuses another media type, a body past the limit, and bytes that are not UTF-8", async () => {
    expect(await refusal(readFormBody(post("{}", "application/json")))).toMatchObject({
      code: "unsupported_media_type",
    });
    expect(await refusal(readFormBody(post("a=1", null)))).toMatchObject({ code: "unsupported_media_type" });
    expect(await refusal(readFormBody(post(`a=${"x".repeat(100)}`), { maxBytes: 50 }))).toMatchObject({
      code: "payload_too_large",
    });
    // Raw bytes that are not UTF-8.
    expect(await refusal(readFormBody(post(new Uint8Array([0x61, 0x3d, 0xff]))))).toMatchObject({
      code: "invalid_argument",
    });
    // Escapes of bytes no UTF-8 text holds, and a malformed escape, which URLSearchParams would
    // have turned into U+FFFD and into itself: refused naming the field.
    for (const body of ["a=%FF", "a=%E0%A4%A", "a=%G1"])
      expect(await refusal(readFormBody(post(body))), body).toMatchObject({
        code: "invalid_payload",
        reasons: [{ field: "a", reason: "is not percent-encoded UTF-8" }],
      });
  });

  it("never returns a value PostgreSQL can't store, and names the field of one it refuses", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString({ maxLength: 20 }), async (value) => {
        const outcome = await readFormBody(post(`note=${percentEncode(value)}`)).catch((error: unknown) => error);
        if (outcome instanceof URLSearchParams) {
          expect(isStorableText(outcome.get("note") ?? "")).toBe(true);
          return;
        }
        // Lone surrogates go out as WTF-8 escapes, which are not UTF-8; U+0000 can't be stored.
        expect(outcome).toMatchObject({ code: "invalid_payload", reasons: [{ field: "note" }] });
        expect(isVitrinaError(outcome)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("readOAuthForm", () => {
  it("tells each refusal as invalid_request, naming the parameter", async () => {
    const oauthError = async (request: Request) => {
      const error = (await refusal(readOAuthForm(request))) as { errorCode?: string; message: string };
      return { errorCode: error.errorCode, message: error.message };
    };
    expect(await oauthError(post("code=%00"))).toEqual({
      errorCode: "invalid_request",
      message: expect.stringMatching(/^parameter code /),
    });
    expect(await oauthError(post("code=%FF"))).toMatchObject({ errorCode: "invalid_request" });
    expect(await oauthError(post("code=a", "text/plain"))).toMatchObject({ errorCode: "invalid_request" });
    expect(await oauthError(post("code=a&code=b"))).toEqual({
      errorCode: "invalid_request",
      message: "parameter code was sent more than once",
    });
  });

  it("leaves an oversized body a payload_too_large for the 413", async () => {
    expect(await refusal(readOAuthForm(post(`code=${"x".repeat(20_000)}`)))).toMatchObject({
      code: "payload_too_large",
    });
  });
});
