import { describe, expect, it } from "vitest";
import { databaseUrlsFromEnv } from "../src/config/database-pooler.js";

const URL_ = "postgres://app:s%40cret@db.example:6543/app";

describe("databaseUrlsFromEnv: which pooler DATABASE_URL goes through", () => {
  it("reads ?pgbouncer=true as a transaction pooler and strips it before pg sees the URL", () => {
    expect(databaseUrlsFromEnv({}, `${URL_}?pgbouncer=true&sslmode=require`)).toEqual({
      url: `${URL_}?sslmode=require`,
      pooler: "transaction",
      directUrl: undefined,
    });
    expect(databaseUrlsFromEnv({}, `${URL_}?pgbouncer=false`)).toMatchObject({ url: URL_, pooler: null });
  });

  it("leaves a URL without it untouched, and takes VITRINA_DB_POOLER and DATABASE_DIRECT_URL", () => {
    expect(databaseUrlsFromEnv({}, URL_)).toEqual({ url: URL_, pooler: null, directUrl: undefined });
    expect(
      databaseUrlsFromEnv({ VITRINA_DB_POOLER: "session", DATABASE_DIRECT_URL: "postgres://app@db:5432/app" }, URL_),
    ).toEqual({ url: URL_, pooler: "session", directUrl: "postgres://app@db:5432/app" });
    expect(databaseUrlsFromEnv({ VITRINA_DB_POOLER: "transaction" }, `${URL_}?pgbouncer=true`).pooler).toBe(
      "transaction",
    );
  });

  it.each([
    [{}, `${URL_}?pgbouncer=yes`, "DATABASE_URL"],
    [{ VITRINA_DB_POOLER: "statement" }, URL_, "VITRINA_DB_POOLER"],
    [{ VITRINA_DB_POOLER: "session" }, `${URL_}?pgbouncer=true`, "VITRINA_DB_POOLER"],
  ])("refuses %j with %s naming %s, never echoing the URL", (env, url, field) => {
    let thrown: any;
    try {
      databaseUrlsFromEnv(env, url);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid_argument", reasons: [{ field }] });
    expect(thrown.message).not.toContain("s%40cret");
  });
});
