import { describe } from "vitest";
import { runStorageContract } from "@vitrina/core/testing";
import { backends, openTestStorage } from "./support.js";

describe("adapter-postgres", () => {
  for (const backend of backends) {
    runStorageContract(`postgres on ${backend}`, { create: async () => (await openTestStorage(backend)).storage });
  }
});
