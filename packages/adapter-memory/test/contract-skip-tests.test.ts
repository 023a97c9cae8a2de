import { memoryStorage } from "@vitrina/adapter-memory";
import { CONTRACT_SECTION_NAMES, runStorageContract } from "@vitrina/core/testing";

// An adapter can disable a single test of the contract, with a reason, instead of a whole section
// (`skipTests`). Here the memory adapter disables the ping test and its storage's `ping` throws:
// had the disabled test run anyway, it would fail. Every other section is skipped in this file
// only; contract.test.ts runs the whole contract on the memory adapter.
const ONLY_HERE = "this file checks skipTests; contract.test.ts runs every section on the memory adapter";

runStorageContract("memory, one test disabled", {
  create: async () => {
    const storage = memoryStorage();
    return {
      ...storage,
      ping: async () => {
        throw new Error("the disabled test ran: skipTests did not disable it");
      },
    };
  },
  skip: Object.fromEntries(CONTRACT_SECTION_NAMES.filter((name) => name !== "basics").map((name) => [name, ONLY_HERE])),
  skipTests: { "basics > answers ping while open and refuses it once closed": "this storage's ping always throws" },
});
