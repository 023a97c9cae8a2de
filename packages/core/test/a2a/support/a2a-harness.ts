import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { Role } from "@a2a-js/sdk";
import type { VitrinaOptions } from "@vitrina/core";
import { startCatalogServer } from "../../support/catalog-server.js";

/** The catalog server of the surface tests at a fixed time (the catalog fixture's generatedAt), plus a raw A2A call. */
export async function startA2aServer(over: Partial<VitrinaOptions> = {}) {
  const h = await startCatalogServer(over, Date.parse("2026-11-01T12:00:00Z"));
  const { call } = h;
  /** A raw A2A JSON-RPC call, as any v1.0 client sends it. */
  const rpc = (
    method: string,
    params: unknown,
    options: { key?: string | null; headers?: Record<string, string> } = {},
  ) =>
    call("POST", "/a2a", {
      body: { jsonrpc: "2.0", id: 7, method, params },
      ...(options.key !== undefined && { key: options.key }),
      headers: { "a2a-version": "1.0", ...options.headers },
    });

  return { ...h, rpc };
}
export type A2aServer = Awaited<ReturnType<typeof startA2aServer>>;

/** The official client, built from the agent card it resolves at the server's well-known path. */
export async function officialClient(baseUrl: string): Promise<Client> {
  return new ClientFactory().createFromUrl(baseUrl);
}

/** `SendMessage`'s request in the SDK's own types: one JSON data part `{ capability, input }`. */
export function capabilityMessage(capability: string, input: unknown, idempotencyKey?: string) {
  return {
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: "data" as const, value: { capability, input } },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        },
      ],
      metadata: idempotencyKey === undefined ? undefined : { idempotencyKey },
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
    tenant: "",
  };
}

/** The bearer header the SDK client sends, as a per-call service parameter. */
export const bearer = (token: string) => ({ serviceParameters: { authorization: `Bearer ${token}` } });
