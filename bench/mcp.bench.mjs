// tools/call per second through HTTP: Vitrina's /mcp calling query_catalog (bearer auth, scope
// check, argument validation, the capability runtime) next to a bare @modelcontextprotocol/sdk
// server with one trivial tool on the same web-standard transport and the same http-node serve.
// Raw keep-alive fetch POSTs of one JSON-RPC message each, as a stateless MCP client sends them.
import { Agent } from "undici";
import { load } from "./lib.mjs";
import { startServerProcess } from "./lead-load.mjs";

export const name =
  "MCP tools/call: vitrina query_catalog vs bare SDK server with one trivial tool (16 connections, best of 3 alternating rounds)";

async function drive(info, { total, concurrency = 16 }) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  try {
    return await load(
      async (i) => {
        const response = await fetch(info.url, {
          method: "POST",
          dispatcher,
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${info.token}`,
            "mcp-protocol-version": "2025-06-18",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: i,
            method: "tools/call",
            params: { name: info.tool, arguments: info.arguments },
          }),
        });
        const reply = await response.json();
        if (response.status !== 200 || reply.error || reply.result?.isError)
          throw new Error(`call ${i}: ${response.status} ${JSON.stringify(reply)}`);
      },
      { total, concurrency },
    );
  } finally {
    await dispatcher.close();
  }
}

async function measure(kind) {
  const server = await startServerProcess("mcp-server.mjs", [kind]);
  try {
    await drive(server.info, { total: 1000 }); // warm-up
    return await drive(server.info, { total: 8000 });
  } finally {
    server.stop();
  }
}

// The machine may be shared: alternate the two servers and keep each one's best round.
async function bestOf(rounds) {
  const best = {};
  for (let round = 0; round < rounds; round++) {
    for (const kind of ["bare", "vitrina"]) {
      const result = await measure(kind);
      if (!best[kind] || result.perSecond > best[kind].perSecond) best[kind] = result;
    }
  }
  return best;
}

export async function run() {
  const { bare, vitrina } = await bestOf(3);
  const row = (label, r) => [
    { case: `${label} calls/s`, value: r.perSecond, unit: "req/s" },
    { case: `${label} p50 / p99`, value: `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)}`, unit: "ms" },
  ];
  return [
    ...row("bare SDK server, trivial tool", bare),
    ...row("vitrina /mcp query_catalog", vitrina),
    {
      case: "vitrina / bare",
      value: `${((vitrina.perSecond / bare.perSecond) * 100).toFixed(1)}%`,
      note: `overhead ratio ${(bare.perSecond / vitrina.perSecond).toFixed(2)}x time per call`,
    },
  ];
}
