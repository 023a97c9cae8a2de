import { type StorageRepositories } from "@vitrina/core";
import { assertStorableText } from "@vitrina/core/storage";

type AnyRepository = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * Every repository method refuses arguments holding U+0000 or a lone surrogate with 400
 * `invalid_argument`, before touching a table, as the PostgreSQL adapter does: a memory store
 * that accepted them would pass tests that then fail in production on PostgreSQL.
 */
export function refuseUnstorableText(repositories: StorageRepositories): StorageRepositories {
  const guarded: Record<string, AnyRepository> = {};
  for (const [repoName, repo] of Object.entries(repositories as unknown as Record<string, AnyRepository>)) {
    const methods: AnyRepository = {};
    for (const [method, call] of Object.entries(repo)) {
      methods[method] = async (...args) => {
        for (const arg of args) assertStorableText(arg, "");
        return call(...args);
      };
    }
    guarded[repoName] = methods;
  }
  return guarded as unknown as StorageRepositories;
}
