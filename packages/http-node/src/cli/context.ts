import { resolve } from "node:path";
import { createVitrina, silentLogger, VitrinaError, type Vitrina } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import type { VitrinaConfig } from "../config/config-file.js";
import { nodeWebhookOptions } from "../network/node-webhook-options.js";
import { retentionFromEnv } from "../config/retention-from-env.js";
import { storageFromEnv, type ConfiguredStorage } from "../config/storage-from-env.js";
import { stderrLogger, type Output } from "./output.js";
import { cliSecretBox } from "./secret-box.js";

/** What every command starts from: the app's configuration and the global flags. */
export interface CliSetup {
  config: VitrinaConfig;
  configFile: string | null;
  /** The folder the CLI runs in: a relative VITRINA_DATA_DIR (default .vitrina) is under it. */
  cwd: string;
  memory?: boolean;
  out: Output;
  /** The environment `main` was given (the process's own when run as `vitrina`): every setting is read from it. */
  env: Record<string, string | undefined>;
  /** Stops a long-running command (`vitrina worker`) as SIGTERM does; without one it listens to the process's signals. */
  signal?: AbortSignal;
}

/** What every console command works against: the app's configuration, its storage and a Vitrina over it. */
export interface CliContext {
  config: VitrinaConfig;
  /** Where the storage came from, for messages; `kind: "config"` when the config file passed `storage`. */
  storage: { description: string; kind: ConfiguredStorage["kind"] | "config"; dataDir: string };
  vitrina: Vitrina;
  out: Output;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/** Storage as the app configures it: the config's own `storage`, else `storageFromEnv` in the config's schema. */
export async function openConfiguredStorage(
  options: CliSetup,
): Promise<Omit<ConfiguredStorage, "kind"> & { kind: ConfiguredStorage["kind"] | "config" }> {
  const { config } = options;
  if (config.storage !== undefined && !options.memory) {
    return {
      storage: config.storage,
      kind: "config",
      description: `the storage from ${options.configFile}`,
      persistent: true,
      dataDir: "",
    };
  }
  const env = { ...options.env, VITRINA_DATA_DIR: resolve(options.cwd, options.env.VITRINA_DATA_DIR || ".vitrina") };
  const logger = config.logger ?? stderrLogger(options.out);
  return storageFromEnv({ memory: options.memory, schema: config.database?.schema, env, logger });
}

/**
 * A Vitrina built from the app's configuration, so a separate `vitrina worker` signs with the app's
 * header prefix and webhook options, and console commands seal with the app's key.
 */
export async function openCliContext(options: CliSetup): Promise<CliContext> {
  const { config } = options;
  const { env } = options;
  // Read before the storage opens, so a bad setting leaves nothing open behind it.
  const retention = config.retention ?? retentionFromEnv(env);
  const configured = await openConfiguredStorage(options);
  const webhooks = config.webhooks ?? {};
  const { send: pinned, ...guards } = nodeWebhookOptions({
    allowInsecureLoopback: webhooks.allowInsecureLoopback ?? env.VITRINA_ALLOW_INSECURE_LOOPBACK === "true",
    allowPrivateNetworks: webhooks.allowPrivateNetworks,
  });
  try {
    const vitrina = createVitrina({
      ...config,
      logger: config.logger ?? stderrLogger(options.out),
      storage: configured.storage,
      // Console commands never send messages; the transport only satisfies the composition root.
      messaging: config.messaging ?? logMessagingTransport(silentLogger),
      secretBox: cliSecretBox(configured.kind, configured.dataDir, config.secretBox, env),
      // The worker and `deliveries resend` deliver: same SSRF guard as the server. Loopback receivers
      // only when the config or VITRINA_ALLOW_INSECURE_LOOPBACK allows them (local development).
      // A config that brings its own `fetch` (or `send`) delivers with it instead of the pinned sender.
      webhooks: {
        ...guards,
        ...(webhooks.fetch === undefined && { send: pinned }),
        ...webhooks,
      },
      // `vitrina worker` applies it periodically, `vitrina cleanup` on demand.
      retention,
    });
    return { config, storage: configured, vitrina, out: options.out, env, signal: options.signal };
  } catch (error) {
    await configured.storage.close();
    throw error instanceof VitrinaError
      ? error
      : new VitrinaError("invalid_argument", `the configuration is invalid: ${(error as Error).message}`, {
          cause: error,
        });
  }
}
