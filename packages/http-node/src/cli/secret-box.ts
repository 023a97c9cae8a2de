import { randomBytes } from "node:crypto";
import { createAesGcmSecretBox, VitrinaError, type SecretBox } from "@vitrina/core";
import { secretKeyFromEnv, secretKeyRequiredMessage, type ConfiguredStorage } from "../config/storage-from-env.js";

/** The storage the CLI opened: `config` when the config file passed its own. */
type StorageKind = ConfiguredStorage["kind"] | "config";

/**
 * The CLI's secret box. The key is the configured one (`secretBox` in the config file, else
 * `VITRINA_SECRET_KEY`); only embedded PGlite may fall back to the key kept in its data directory,
 * and memory storage to a throwaway key. On PostgreSQL without a configured key, sealing or opening
 * fails with `invalid_argument` saying how to set the key, before anything is written: a key made up
 * here would seal secrets the server can't open (its CRMs would get 500s). The key is resolved on
 * first use, so commands that never seal (workspaces, API keys, migrate) don't need it.
 */
export function cliSecretBox(
  kind: StorageKind,
  dataDir: string,
  configuredKey: SecretBox | string | undefined,
  env: Record<string, string | undefined>,
): SecretBox {
  if (configuredKey !== undefined && typeof configuredKey !== "string") return configuredKey;
  let box: Promise<SecretBox> | undefined;
  const resolveBox = () =>
    (box ??= resolveKey(kind, dataDir, configuredKey || env.VITRINA_SECRET_KEY, env).then(createAesGcmSecretBox));
  return {
    seal: async (plaintext) => (await resolveBox()).seal(plaintext),
    open: async (sealed) => (await resolveBox()).open(sealed),
    // The AES-GCM box always derives keys (erasure's suppression hashes need one).
    deriveKey: async (purpose) => (await resolveBox()).deriveKey!(purpose),
  };
}

/** Fails now, rather than at the first seal, when the key would be missing (the worker's startup). */
export async function requireSecretKey(
  kind: StorageKind,
  dataDir: string,
  configuredKey: SecretBox | string | undefined,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (configuredKey !== undefined && typeof configuredKey !== "string") return;
  await resolveKey(kind, dataDir, configuredKey || env.VITRINA_SECRET_KEY, env);
}

async function resolveKey(
  kind: StorageKind,
  dataDir: string,
  key: string | undefined,
  env: Record<string, string | undefined>,
): Promise<string> {
  if (key) return key;
  if (kind === "pglite") return secretKeyFromEnv(dataDir, { ...env, DATABASE_URL: "" });
  if (kind === "memory") return randomBytes(32).toString("base64");
  throw new VitrinaError(
    "invalid_argument",
    secretKeyRequiredMessage(kind === "config" ? "The config file passes its own storage" : undefined),
  );
}
