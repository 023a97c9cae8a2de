import { NotFoundError } from "../errors.js";
import { insertConnectorWithSecret, rotateConnectorSecret } from "../connectors/connector-secrets.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConnectorRecord } from "../ports/records.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import type { ConnectorCreate } from "./admin-input.js";
import { toPage, wholeList, type ListPage } from "../http/list-page.js";
import { connectorLeadView, connectorView, type ConnectorLeadView, type ConnectorView } from "./admin-views.js";

/**
 * Connectors for the admin API: owners and admins create and rotate, members read. The secret is
 * generated here, sealed at rest and returned once, by `create` and `rotate` only.
 */
export function createConnectorAdmin(deps: { storage: Storage; secretBox: SecretBox; clock: Clock; ids: IdGenerator }) {
  const { storage } = deps;

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
      const { record, secret } = await insertConnectorWithSecret(deps, {
        workspaceId: caller.workspaceId,
        name: input.name,
        systemId: input.system,
      });
      return { connector: connectorView(record), secret };
    },

    async list(caller: AdminCaller, page: { limit: number; startingAfter?: string }): Promise<ListPage<ConnectorView>> {
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
    ): Promise<ListPage<ConnectorLeadView>> {
      await load(caller, id);
      const rows = await storage.connectorLeads.listByConnector(id, { ...page, limit: page.limit + 1 });
      return toPage(rows, page.limit, connectorLeadView, (l) => l.id);
    },

    /** A new secret, shown once; the previous one stops verifying at once (keys are cached per secret version). */
    async rotate(caller: AdminCaller, id: string): Promise<{ connector: ConnectorView; secret: string }> {
      requireManager(caller, "rotate connector secrets");
      await load(caller, id);
      const { record, secret } = await rotateConnectorSecret(deps, id);
      return { connector: connectorView(record), secret };
    },
  };
}
export type ConnectorAdmin = ReturnType<typeof createConnectorAdmin>;
