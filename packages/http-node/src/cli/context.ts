import { createVitrina, logMessagingTransport, silentLogger, VitrinaError, type Vitrina } from "@vitrina/core";
import { secretKeyFromEnv, storageFromEnv, type ConfiguredStorage } from "../storage-from-env.js";

/** What every console command works against: the configured storage and a Vitrina over it. */
export interface CliContext {
  configured: ConfiguredStorage;
  vitrina: Vitrina;
}

export async function openCliContext(flags: { memory?: boolean }): Promise<CliContext> {
  const configured = await storageFromEnv({ memory: flags.memory });
  const vitrina = createVitrina({
    storage: configured.storage,
    // Console commands never send messages; the transport only satisfies the composition root.
    messaging: logMessagingTransport(silentLogger),
    secretBox: await secretKeyFromEnv(configured.dataDir),
  });
  return { configured, vitrina };
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new VitrinaError("invalid_argument", `missing --${flag}`);
  return value;
}
