import { createVitrina, logMessagingTransport, silentLogger, VitrinaError, type Vitrina } from "@vitrina/core";
import { nodeWebhookOptions } from "../pinned-fetch.js";
import { storageFromEnv, type ConfiguredStorage } from "../storage-from-env.js";
import { cliSecretBox } from "./secret-box.js";

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
    secretBox: cliSecretBox(configured, undefined),
    // The worker and `deliveries resend` deliver: same SSRF guard as the server. Loopback receivers
    // only when explicitly allowed (local development).
    webhooks: nodeWebhookOptions({ allowInsecureLoopback: process.env.VITRINA_ALLOW_INSECURE_LOOPBACK === "true" }),
  });
  return { configured, vitrina };
}

/** `--scopes a,b` → `["a", "b"]`. */
export function list(value: string | undefined, flag: string): string[] {
  return required(value, flag).split(",").map((s) => s.trim()).filter(Boolean);
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new VitrinaError("invalid_argument", `missing --${flag}`);
  return value;
}
