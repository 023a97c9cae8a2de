import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, isVitrinaError, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

const SECRET_BOX_KEY = Buffer.alloc(32, 7).toString("base64");
const approve: NonNullable<VitrinaOptions["oauth"]>["authorize"] = async (_request, { scopes }) => ({
  userId: "u",
  workspaceId: "w",
  grantedScopes: scopes,
});

function vitrinaAt(options: Partial<VitrinaOptions>) {
  return createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    ...options,
  });
}

async function getJson(vitrina: ReturnType<typeof vitrinaAt>, url: string) {
  const response = await vitrina.handler(new Request(url));
  return { status: response.status, json: (await response.json()) as any };
}

describe("basePath and publicUrl: every URL Vitrina serves or prints carries the mount", () => {
  it("routes match under the prefix, and without it for frameworks that strip it (Hono's mount, Express's use)", async () => {
    const vitrina = vitrinaAt({ basePath: "/vitrina/" });
    expect(vitrina.basePath).toBe("/vitrina");
    for (const url of ["http://app.test/vitrina/v1/capabilities", "http://app.test/v1/capabilities"]) {
      const { status, json } = await getJson(vitrina, url);
      expect(status, url).toBe(200);
      expect(json.mcpServer.url).toBe("/vitrina/mcp");
    }
    expect((await vitrina.handler(new Request("http://app.test/vitrina/nope"))).status).toBe(404);
  });

  it("the catalog's mcpServer.url is absolute with publicUrl, and stays /mcp with neither option", async () => {
    expect(
      (
        await getJson(
          vitrinaAt({ basePath: "/vitrina", publicUrl: "https://shop.example.com/" }),
          "http://10.0.0.5/vitrina/v1/capabilities",
        )
      ).json.mcpServer.url,
    ).toBe("https://shop.example.com/vitrina/mcp");
    expect((await getJson(vitrinaAt({}), "http://app.test/v1/capabilities")).json.mcpServer.url).toBe("/mcp");
  });

  it("with OAuth: the MCP 401, discovery documents, issuer and endpoints all carry the prefix", async () => {
    const vitrina = vitrinaAt({
      basePath: "/vitrina",
      publicUrl: "https://shop.example.com",
      oauth: { authorize: approve },
    });
    const refused = await vitrina.handler(
      new Request("http://10.0.0.5/vitrina/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain(
      'resource_metadata="https://shop.example.com/.well-known/oauth-protected-resource/vitrina/mcp"',
    );

    // The documents an app routes from its origin root to the handler.
    expect(vitrina.wellKnownPaths).toEqual([
      "/.well-known/oauth-protected-resource/vitrina/mcp",
      "/.well-known/oauth-authorization-server/vitrina",
    ]);
    const resource = await getJson(vitrina, "http://10.0.0.5/.well-known/oauth-protected-resource/vitrina/mcp");
    expect(resource.json).toMatchObject({
      resource: "https://shop.example.com/vitrina/mcp",
      authorization_servers: ["https://shop.example.com/vitrina"],
    });
    const server = await getJson(vitrina, "http://10.0.0.5/.well-known/oauth-authorization-server/vitrina");
    expect(server.json).toMatchObject({
      issuer: "https://shop.example.com/vitrina",
      authorization_endpoint: "https://shop.example.com/vitrina/authorize",
      token_endpoint: "https://shop.example.com/vitrina/token",
      registration_endpoint: "https://shop.example.com/vitrina/register",
      revocation_endpoint: "https://shop.example.com/vitrina/revoke",
      jwks_uri: "https://shop.example.com/vitrina/.well-known/jwks.json",
    });

    // Each advertised endpoint answers under the prefix.
    expect((await getJson(vitrina, "http://10.0.0.5/vitrina/.well-known/jwks.json")).json.keys).toHaveLength(1);
    const registered = await vitrina.handler(
      new Request("http://10.0.0.5/vitrina/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "c",
          redirect_uris: ["http://127.0.0.1:9999/cb"],
          token_endpoint_auth_method: "none",
        }),
      }),
    );
    expect(registered.status).toBe(201);
  });

  it("without publicUrl the URLs follow the request's origin; without OAuth there is nothing to route at the root", async () => {
    const vitrina = vitrinaAt({ basePath: "/vitrina", oauth: { authorize: approve } });
    const server = await getJson(vitrina, "http://127.0.0.1:8080/.well-known/oauth-authorization-server/vitrina");
    expect(server.json.token_endpoint).toBe("http://127.0.0.1:8080/vitrina/token");
    expect(vitrinaAt({ basePath: "/vitrina" }).wellKnownPaths).toEqual([]);
  });

  it("with OAuth under a prefix, the authorization-server metadata answers at the issuer's path only (RFC 8414 §3.1)", async () => {
    const vitrina = vitrinaAt({
      basePath: "/vitrina",
      publicUrl: "https://shop.example.com",
      oauth: { authorize: approve },
    });
    // The root names an issuer without a path, and the others name other issuers: none of them is ours.
    for (const path of ["", "/other", "/vitrina/mcp", "/vitrinas"]) {
      const url = `http://10.0.0.5/.well-known/oauth-authorization-server${path}`;
      const { status, json } = await getJson(vitrina, url);
      expect(status, url).toBe(404);
      expect(json.error_description, url).toContain(
        "https://shop.example.com/.well-known/oauth-authorization-server/vitrina",
      );
    }
    const ours = await getJson(vitrina, "http://10.0.0.5/.well-known/oauth-authorization-server/vitrina/");
    expect(ours.status).toBe(200);
    expect(ours.json.issuer).toBe("https://shop.example.com/vitrina");
  });

  it("publicUrl with a path (the form the CLI's config documents) is the mount: routes, catalog and publicBaseUrl carry it", async () => {
    for (const options of [
      { publicUrl: "https://api.acme.example/vitrina" },
      { publicUrl: "https://api.acme.example/vitrina/", basePath: "/vitrina" },
      { publicUrl: "https://api.acme.example", basePath: "/vitrina" },
    ]) {
      const vitrina = vitrinaAt(options);
      expect(vitrina.basePath, JSON.stringify(options)).toBe("/vitrina");
      expect(vitrina.publicBaseUrl, JSON.stringify(options)).toBe("https://api.acme.example/vitrina");
      expect(vitrina.whatsapp.webhookPath).toBe("/vitrina/functions/v1/whatsapp-webhook");
      const { status, json } = await getJson(vitrina, "http://10.0.0.5/vitrina/v1/capabilities");
      expect(status).toBe(200);
      expect(json.mcpServer.url).toBe("https://api.acme.example/vitrina/mcp");
    }
    expect(vitrinaAt({}).publicBaseUrl).toBeUndefined();
  });

  it("refuses a basePath or publicUrl it could not derive URLs from, naming the field", () => {
    const refused = (options: Partial<VitrinaOptions>) => {
      try {
        vitrinaAt(options);
      } catch (error) {
        return isVitrinaError(error) ? { code: error.code, fields: error.reasons.map((r) => r.field) } : error;
      }
      return "accepted";
    };
    expect(refused({ basePath: "vitrina" })).toEqual({ code: "invalid_argument", fields: ["basePath"] });
    expect(refused({ basePath: "/a?b" })).toEqual({ code: "invalid_argument", fields: ["basePath"] });
    expect(refused({ publicUrl: "shop.example.com" })).toEqual({ code: "invalid_argument", fields: ["publicUrl"] });
    expect(refused({ publicUrl: "https://shop.example.com/vitrina?x=1" })).toEqual({
      code: "invalid_argument",
      fields: ["publicUrl"],
    });
    // The prefix named twice, differently: which one counts would be a guess.
    expect(refused({ publicUrl: "https://shop.example.com/vitrina", basePath: "/other" })).toEqual({
      code: "invalid_argument",
      fields: ["publicUrl"],
    });
    expect(refused({ publicUrl: "ftp://shop.example.com" })).toEqual({
      code: "invalid_argument",
      fields: ["publicUrl"],
    });
  });
});
