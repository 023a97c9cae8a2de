import { NotFoundError } from "../errors.js";
import { generateSecret } from "../crypto/random.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConnectorRecord } from "../ports/records.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import type { ConnectorCreate } from "./admin-input.js";
import { toPage, type AdminPage } from "./admin-page.js";
import { connectorLeadView, connectorView, type ConnectorLeadView, type ConnectorView } from "./admin-views.js";

const SECRET_PREFIX = "vtr_cs_";

/**
 * Connectors for the admin API: owners and admins create and rotate, members read. The secret is
 * generated here, sealed at rest and returned once, by `create` and `rotate` only.
 */
export function createConnectorAdmin(deps: { storage: Storage; secretBox: SecretBox; clock: Clock; ids: IdGenerator }) {
  const { storage, secretBox, clock, ids } = deps;

  async function load(caller: AdminCaller, id: string): Promise<ConnectorRecord> {
    const connector = await storage.connectors.get(id);
    // Another workspace's connector is as unknown as a missing one: ids never leak across tenants.
    if (connector === null || connector.workspaceId !== caller.workspaceId)
      throw new NotFoundError(`connector ${id} does not exist`);
    return connector;
  }

  return {
    async create(caller: AdminCaller, input: ConnectorCreate): Promise<{ connector: ConnectorView; secret: string }> {
      requireManager(caller, "create connectors");
      const secret = generateSecret(SECRET_PREFIX);
      const record: ConnectorRecord = {
        id: ids(),
        workspaceId: caller.workspaceId,
        name: input.name,
        systemId: input.system,
        sealedSecret: await secretBox.seal(secret),
        secretVersion: 1,
        createdAt: clock.now().toISOString(),
        rotatedAt: null,
      };
      await storage.connectors.insert(record);
      return { connector: connectorView(record), secret };
    },

    async list(
      caller: AdminCaller,
      page: { limit: number; startingAfter?: string },
    ): Promise<AdminPage<ConnectorView>> {
      const rows = await storage.connectorPages.listPage(caller.workspaceId, { ...page, limit: page.limit + 1 });
      return toPage(rows, page.limit, connectorView, (c) => c.id);
    },

    async get(caller: AdminCaller, id: string): Promise<ConnectorView> {
      return connectorView(await load(caller, id));
    },

    /** The connector's leads, newest first, with duplicate flag, first-message outcome and refused qualification. */
    async leads(
      caller: AdminCaller,
      id: string,
      page: { limit: number; startingAfter?: string },
    ): Promise<AdminPage<ConnectorLeadView>> {
      await load(caller, id);
      const rows = await storage.connectorLeads.listByConnector(id, { ...page, limit: page.limit + 1 });
      return toPage(rows, page.limit, connectorLeadView, (l) => l.id);
    },

    /** A new secret, shown once; the previous one stops verifying at once (keys are cached per secret version). */
    async rotate(caller: AdminCaller, id: string): Promise<{ connector: ConnectorView; secret: string }> {
      requireManager(caller, "rotate connector secrets");
      await load(caller, id);
      const secret = generateSecret(SECRET_PREFIX);
      const updated = await storage.connectors.updateSecret(
        id,
        await secretBox.seal(secret),
        clock.now().toISOString(),
      );
      if (updated === null) throw new NotFoundError(`connector ${id} does not exist`);
      return { connector: connectorView(updated), secret };
    },
  };
}
export type ConnectorAdmin = ReturnType<typeof createConnectorAdmin>;
