// MCP tools/call through HTTP, server and load generator in separate processes: Vitrina's /mcp
// calling query_catalog (bearer auth, scope check, argument validation, the capability runtime)
// next to a bare @modelcontextprotocol/sdk server with one trivial tool in two modes: a server per
// request (the SDK's stateless pattern) and one server with one session (its fastest legal mode,
// the reference). Each server is measured in three alternating rounds and keeps its median.
import { measure, startServer } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow } from "./load/report.mjs";

const connections = 16;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;

export const name = `MCP tools/call: vitrina query_catalog vs bare SDK servers (${connections} connections, median of ${ROUNDS} alternating rounds, ${durationMs / 1000} s each)`;

/** One call, checked in full (the generator only checks the status): a wrong answer would make every rate meaningless. */
async function checkOneCall(kind) {
  const server = await startServer("mcp-server.mjs", [kind]);
  try {
    const { url, token, tool, arguments: args, sessionId } = server.info;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2025-06-18",
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
    });
    const reply = await response.json();
    if (response.status !== 200 || reply.error || reply.result?.isError)
      throw new Error(`${kind}: ${response.status} ${JSON.stringify(reply)}`);
  } finally {
    await server.stop();
  }
}

const median = (results) => [...results].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(results.length / 2)];

export async function run() {
  const kinds = ["bare-session", "bare-per-request", "vitrina"];
  for (const kind of kinds) await checkOneCall(kind);
  const ceiling = await generatorCeiling({ connections, durationMs });
  const results = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const kind of kinds)
      results[kind].push(await measure("mcp-server.mjs", [kind], { profile: "mcp", connections, durationMs }));
  const session = median(results["bare-session"]);
  const perRequest = median(results["bare-per-request"]);
  const vitrina = median(results.vitrina);
  const reference = { label: "bare SDK, one session", ...session };
  return [
    ...ceiling.rows,
    bottleneckVerdict(ceiling.perSecond, "MCP", Math.max(session.perSecond, vitrina.perSecond)),
    loadRow("bare SDK, one server and session (reference)", session),
    loadRow("bare SDK, server per request", perRequest, reference),
    loadRow("vitrina /mcp query_catalog", vitrina, reference),
    loadRow("vitrina /mcp query_catalog vs per-request SDK", vitrina, {
      label: "bare SDK per request",
      ...perRequest,
    }),
  ];
}
