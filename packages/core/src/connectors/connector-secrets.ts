import { NotFoundError } from "../errors.js";
import { generateSecret } from "../crypto/random.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConnectorRecord } from "../ports/records.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";

const SECRET_PREFIX = "vtr_cs_";

export interface ConnectorSecretDeps {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Stores a new connector with a freshly generated secret, sealed at rest; returns the record and
 * the plaintext secret, which the caller shows once. The one place a connector secret is born
 * (the connector service and the admin API both create through it). Authorization is the caller's.
 */
export async function insertConnectorWithSecret(
  deps: ConnectorSecretDeps,
  input: { workspaceId: string; name: string; systemId: string },
): Promise<{ record: ConnectorRecord; secret: string }> {
  const secret = generateSecret(SECRET_PREFIX);
  const record: ConnectorRecord = {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    name: input.name,
    systemId: input.systemId,
    sealedSecret: await deps.secretBox.seal(secret),
    secretVersion: 1,
    createdAt: deps.clock.now().toISOString(),
    rotatedAt: null,
  };
  await deps.storage.connectors.insert(record);
  return { record, secret };
}

/**
 * Replaces a connector's secret with a new one (shown once by the caller); the previous secret
 * stops verifying at once, since verifying keys are cached per secret version. Authorization is the caller's.
 */
export async function rotateConnectorSecret(
  deps: Omit<ConnectorSecretDeps, "ids">,
  connectorId: string,
): Promise<{ record: ConnectorRecord; secret: string }> {
  const secret = generateSecret(SECRET_PREFIX);
  const record = await deps.storage.connectors.updateSecret(
    connectorId,
    await deps.secretBox.seal(secret),
    deps.clock.now().toISOString(),
  );
  if (record === null) throw new NotFoundError(`connector ${connectorId} does not exist`);
  return { record, secret };
}
