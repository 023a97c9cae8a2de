import { afterAll, beforeAll, describe } from "vitest";
import type { Storage } from "../ports/storage.js";
import { oauthContract } from "./contract-oauth.js";
import { capabilityStorageContract } from "./contract-capabilities.js";
import { inputContract } from "./contract-input.js";
import { concurrencyContract } from "./contract-concurrency.js";
import { leadIntakeContract } from "./contract-lead-intake.js";
import { firstMessageOutcomeContract } from "./contract-first-message-outcome.js";
import { webhookContract } from "./contract-webhooks.js";
import { webhookGuardContract } from "./contract-webhook-guards.js";
import { webhookSigningContract } from "./contract-webhook-signing.js";
import { webhookResendContract } from "./contract-webhook-resend.js";
import { retentionContract } from "./contract-retention.js";
import { basicsSection } from "./contract-basics.js";
import { deliveryListenerSection, directReadSection } from "./contract-direct-read.js";
import { registerSection, type ContractContext, type ContractSection } from "./contract-section.js";
import { assertEverySkipMatched, registeringSection } from "./contract-test.js";
import type { DirectReader } from "./direct-reader.js";
import { adminContract } from "./contract-admin.js";
import { fixtures } from "./fixtures.js";
import { whatsappContract } from "./contract-whatsapp.js";
import { personalDataSection } from "./contract-personal-data.js";
import { leadOperationsSection } from "./contract-lead-operations.js";

/** The sections of the contract, in order; each has the same shape (see `ContractSection`). */
export const CONTRACT_SECTIONS: readonly ContractSection[] = [
  basicsSection,
  { name: "oauth", run: oauthContract },
  { name: "capabilities", run: capabilityStorageContract },
  {
    name: "webhooks",
    run: (c) =>
      [webhookContract, webhookGuardContract, webhookResendContract, webhookSigningContract].forEach((part) => part(c)),
  },
  { name: "bad input", run: inputContract },
  { name: "concurrency", run: concurrencyContract },
  { name: "lead intake", run: (c) => [leadIntakeContract, firstMessageOutcomeContract].forEach((part) => part(c)) },
  { name: "retention", run: retentionContract },
  { name: "admin", run: adminContract },
  { name: "whatsapp", run: whatsappContract },
  personalDataSection,
  leadOperationsSection,
  deliveryListenerSection,
  directReadSection,
];

/** Every section's name, in order: what `skip` keys and `skipTests` keys start with. */
export const CONTRACT_SECTION_NAMES: readonly ContractSectionName[] = CONTRACT_SECTIONS.map(
  (section) => section.name as ContractSectionName,
);

export type ContractSectionName =
  | "basics"
  | "oauth"
  | "capabilities"
  | "webhooks"
  | "bad input"
  | "concurrency"
  | "lead intake"
  | "admin"
  | "whatsapp"
  | "personal data"
  | "lead operations"
  | "retention"
  | "delivery notifications"
  | "direct read-back";

export interface StorageContractOptions {
  /** Makes a fresh, empty, migrated storage. Called once per `describe` block. */
  create(): Promise<Storage>;
  /**
   * Reads what was stored without the adapter's repositories (raw SQL): the "direct read-back"
   * section writes through the adapter and reads through this. Without it that section is skipped.
   */
  directReader?(storage: Storage): DirectReader;
  /**
   * Sections this adapter does not run, each with the reason, printed in the test output. Every
   * section is part of the contract: skipping one means the adapter does not meet it.
   */
  skip?: Partial<Record<ContractSectionName, string>>;
  /**
   * Single tests this adapter does not run, keyed `"<section> > <test name>"` (as the test output
   * names them), each with the reason, printed. A key that names no test fails the suite, so a
   * renamed test can't leave a skip that silently disables nothing.
   */
  skipTests?: Readonly<Record<string, string>>;
}

/**
 * The storage contract: what every adapter must do, asserted by reading back what was stored.
 * Run it from your adapter's test file:
 *
 * ```ts
 * import { runStorageContract } from "@vitrina/core/testing";
 * runStorageContract("my adapter", {
 *   create: async () => myStorage(),
 *   directReader: (storage) => myRawReader(storage), // optional, recommended
 *   skip: { "lead intake": "why this adapter can't" }, // optional; printed
 * });
 * ```
 *
 * Checked against `STORAGE_CONTRACT_VERSION` (from `@vitrina/core/storage`).
 */
export function runStorageContract(name: string, options: StorageContractOptions): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    const f = fixtures();
    beforeAll(async () => {
      storage = await options.create();
    });
    afterAll(async () => {
      await storage?.close();
    });

    async function seedWorkspace() {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const connector = f.connector(workspace.id);
      await storage.connectors.insert(connector);
      return { workspace, connector };
    }

    const { directReader } = options;
    const ctx: ContractContext = {
      storage: () => storage,
      create: options.create,
      f,
      seedWorkspace,
      reader: directReader === undefined ? undefined : lazyReader(() => directReader(storage)),
    };
    const skipTests = options.skipTests ?? {};
    const matched = new Set<string>();
    for (const section of CONTRACT_SECTIONS) {
      registeringSection(section.name, skipTests, matched, () =>
        registerSection(section, ctx, options.skip?.[section.name as ContractSectionName]),
      );
    }
    assertEverySkipMatched(skipTests, matched);
  });
}

/** The reader is made on first use, once the storage exists (sections register before it does). */
function lazyReader(make: () => DirectReader): DirectReader {
  let reader: DirectReader | undefined;
  const get = () => (reader ??= make());
  return {
    workspace: (id) => get().workspace(id),
    member: (workspaceId, userId) => get().member(workspaceId, userId),
    connector: (id) => get().connector(id),
    contact: (id) => get().contact(id),
    conversation: (id) => get().conversation(id),
  };
}
