import { afterAll, beforeAll, describe } from "vitest";
import type { Storage } from "../ports/storage.js";
import { runOAuthStorageContract } from "./contract-oauth.js";
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
import type { DirectReader } from "./direct-reader.js";
import { adminContract } from "./contract-admin.js";
import { fixtures } from "./fixtures.js";
import { whatsappContract } from "./contract-whatsapp.js";
import { personalDataSection } from "./contract-personal-data.js";
import { leadOperationsSection } from "./contract-lead-operations.js";

/** The sections of the contract, in order; each has the same shape (see `ContractSection`). */
export const CONTRACT_SECTIONS: readonly ContractSection[] = [
  basicsSection,
  { name: "oauth", run: (c) => runOAuthStorageContract(c.storage) },
  { name: "capabilities", run: (c) => capabilityStorageContract(c.storage, c.f, c.seedWorkspace) },
  {
    name: "webhooks",
    run: (c) => {
      webhookContract(c.storage);
      webhookGuardContract(c.storage, c.f, c.seedWorkspace);
      webhookResendContract(c.storage, c.f, c.seedWorkspace);
      webhookSigningContract(c.storage, c.f, c.seedWorkspace);
    },
  },
  { name: "bad input", run: (c) => inputContract(c.storage) },
  { name: "concurrency", run: (c) => concurrencyContract(c.storage, c.f, c.seedWorkspace) },
  {
    name: "lead intake",
    run: (c) => {
      leadIntakeContract(c.storage, c.f, c.seedWorkspace);
      firstMessageOutcomeContract(c.storage, c.f, c.seedWorkspace);
    },
  },
  { name: "retention", run: (c) => retentionContract(c.create) },
  { name: "admin", run: (c) => adminContract(c.storage) },
  { name: "whatsapp", run: (c) => whatsappContract(c.storage, c.f, c.seedWorkspace) },
  personalDataSection,
  leadOperationsSection,
  deliveryListenerSection,
  directReadSection,
];

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
    for (const section of CONTRACT_SECTIONS) {
      registerSection(section, ctx, options.skip?.[section.name as ContractSectionName]);
    }
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
