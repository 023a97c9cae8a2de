import { describe, it } from "vitest";
import type { ConnectorRecord, WorkspaceRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import type { fixtures } from "./fixtures.js";
import type { DirectReader } from "./direct-reader.js";

export type Fixtures = ReturnType<typeof fixtures>;
export type Seed = () => Promise<{ workspace: WorkspaceRecord; connector: ConnectorRecord }>;

/** What every section of the contract gets. */
export interface ContractContext {
  /** The suite's shared storage (made once by `create`). */
  storage(): Storage;
  /** A fresh, empty storage, for sections that select across workspaces and need one of their own. */
  create(): Promise<Storage>;
  f: Fixtures;
  /** A workspace with one connector, in the shared storage. */
  seedWorkspace: Seed;
  /** The adapter's own reader of stored rows, when it offers one (see `DirectReader`). */
  reader: DirectReader | undefined;
}

/**
 * One section of the storage contract. Every section has this shape; a section that needs an
 * optional feature says which, and runs only when the adapter has it (as better-auth's
 * `createTestSuite` disables tests per feature). A skipped section prints why.
 */
export interface ContractSection {
  name: string;
  /**
   * Why the section can't run on this adapter, or null when it can; absent, it always runs. Decided
   * from the options, before any storage exists (a feature only the storage object can tell, such
   * as `listenForDeliveries`, is checked by the section's tests, which skip with the reason).
   */
  unavailable?(ctx: Pick<ContractContext, "reader">): string | null;
  run(ctx: ContractContext): void;
}

/**
 * Registers `section`, or a skipped test whose name carries the reason (vitest prints it) when the
 * adapter lacks the feature or its author skipped the section with a reason.
 */
export function registerSection(section: ContractSection, ctx: ContractContext, skipReason: string | undefined): void {
  const reason = skipReason ?? section.unavailable?.({ reader: ctx.reader }) ?? null;
  if (reason === null) {
    section.run(ctx);
    return;
  }
  describe(section.name, () => {
    printSkip(section.name, reason);
    it.skip(`skipped: ${reason}`, () => {});
  });
}

/** Every skip in the contract says why, in the test output. */
export function printSkip(section: string, reason: string): void {
  console.info(`storage contract: "${section}" skipped: ${reason}`);
}
