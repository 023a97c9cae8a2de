import { describe } from "vitest";
import type { Storage } from "@vitrina/core";
import { runStorageContract } from "@vitrina/core/testing";
import { postgresDirectReader } from "./direct-reader.js";
import { backends, openTestStorage } from "./support.js";

describe("adapter-postgres", () => {
  for (const backend of backends) {
    // The direct reader needs the connection and schema behind each storage the contract opens.
    const opened = new Map<Storage, { db: unknown; schema: string }>();
    runStorageContract(`postgres on ${backend}`, {
      create: async () => {
        const { storage, db, schema } = await openTestStorage(backend);
        opened.set(storage, { db, schema });
        return storage;
      },
      directReader: (storage) => {
        const { db, schema } = opened.get(storage)!;
        return postgresDirectReader(db as Parameters<typeof postgresDirectReader>[0], schema);
      },
    });
  }
});
