import { z } from "zod";
import { NotFoundError } from "../errors.js";
import { insertConnectorWithSecret, rotateConnectorSecret } from "./connector-secrets.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConnectorRecord } from "../ports/records.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { requireRole, type Actor } from "../workspaces/workspace-service.js";

/** A connector as the console shows it: never the secret. */
export type ConnectorView = Omit<ConnectorRecord, "sealedSecret">;

/** Returned by create and rotate: the only time the plaintext secret is ever shown. */
export interface ConnectorWithSecret {
  connector: ConnectorView;
  secret: string;
}

const SYSTEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function view(record: ConnectorRecord): ConnectorView {
  const { sealedSecret: _sealed, ...rest } = record;
  return rest;
}

const createInput = z.strictObject({
  workspaceId: z.string().min(1),
  name: z
    .string()
    .refine((name) => name.trim() !== "" && name.length <= 120, "must be 1 to 120 characters")
    .transform((name) => name.trim()),
  systemId: z
    .string()
    .regex(SYSTEM_ID, "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (no spaces)"),
});
const listInput = z.strictObject({ workspaceId: z.string().min(1) });
const rotateInput = z.strictObject({ connectorId: z.string().min(1) });

/**
 * Connectors let an external CRM, form or landing page sign leads for one workspace. Only an
 * owner or admin may create, list or rotate them. Secrets are generated here, sealed at rest and
 * returned once.
 */
export function createConnectorService(deps: {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
}) {
  const { storage } = deps;
  return {
    async create(actor: Actor, input: z.input<typeof createInput>): Promise<ConnectorWithSecret> {
      const { workspaceId, name, systemId } = parseOrThrow(createInput, input, "connector");
      await requireRole(storage, actor, workspaceId, ["owner", "admin"], "create connectors");
      const { record, secret } = await insertConnectorWithSecret(deps, { workspaceId, name, systemId });
      return { connector: view(record), secret };
    },

    async list(actor: Actor, input: z.input<typeof listInput>): Promise<ConnectorView[]> {
      const { workspaceId } = parseOrThrow(listInput, input, "connector list");
      await requireRole(storage, actor, workspaceId, ["owner", "admin"], "list connectors");
      return (await storage.connectors.listByWorkspace(workspaceId)).map(view);
    },

    /** New secret, shown once; the previous one stops verifying immediately. */
    async rotate(actor: Actor, input: z.input<typeof rotateInput>): Promise<ConnectorWithSecret> {
      const { connectorId } = parseOrThrow(rotateInput, input, "connector rotation");
      const existing = await storage.connectors.get(connectorId);
      if (existing === null) throw new NotFoundError(`connector ${connectorId} does not exist`);
      await requireRole(storage, actor, existing.workspaceId, ["owner", "admin"], "rotate connector secrets");
      const { record, secret } = await rotateConnectorSecret(deps, connectorId);
      return { connector: view(record), secret };
    },
  };
}
export type ConnectorService = ReturnType<typeof createConnectorService>;
