// MCP tools/call through HTTP, server and load generator in separate processes: Vitrina's /mcp
// calling query_catalog (bearer auth, scope check, argument validation, the capability runtime)
// next to a bare @modelcontextprotocol/sdk server with one trivial tool in two modes: a server per
// request (the SDK's stateless pattern) and one server with one session (its fastest legal mode,
// the reference). Each server is started once, checked with one full call, warmed up, then measured
// in three alternating rounds on the same warm process (as a production server runs), and keeps its
// median. Restarting every server for every round spent about a sixth of this section's time on
// process start-up and warm-up.
import { measureServer, startServer } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow, medianRound } from "./load/report.mjs";

const connections = 16;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;
/** The first round's warm-up on a fresh server; later rounds re-warm for a moment on a warm JIT. */
const WARMUP_MS = 1000;
const REWARM_MS = 500;

export const name = `MCP tools/call, REST and A2A SendMessage: vitrina catalog.search vs bare SDK servers and the runtime in process (${connections} connections, median of ${ROUNDS} alternating rounds, ${durationMs / 1000} s each)`;

/** The load profile each server kind is driven with. */
const PROFILES = { "vitrina-rest": "rest", "vitrina-a2a": "a2a" };

/** One A2A SendMessage, checked in full like checkOneCall's MCP call. */
async function checkOneA2aCall(server) {
  const { url, token, capability, arguments: input } = server.info;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "a2a-version": "1.0" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: "check", role: "ROLE_USER", parts: [{ data: { capability, input } }] } },
    }),
  });
  const reply = await response.json();
  if (response.status !== 200 || reply.error || !Array.isArray(reply.result?.message?.parts?.[0]?.data))
    throw new Error(`vitrina-a2a: ${response.status} ${JSON.stringify(reply)}`);
}

/** One call, checked in full (the generator only checks the status): a wrong answer would make every rate meaningless. */
async function checkOneCall(kind, server) {
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
}

/** The same capability call straight through the runtime, in this process: the floor both surfaces add to. */
async function runtimeInvoke() {
  const { createVitrina, silentLogger } = await import("@vitrina/core");
  const { logMessagingTransport, seedDemoData } = await import("@vitrina/core/demo");
  const { memoryStorage } = await import("@vitrina/adapter-memory");
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    logger: silentLogger,
  });
  const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
  await seedDemoData(vitrina, workspace.id);
  const principal = { workspaceId: workspace.id, scopes: ["catalog:read"], actorId: "bench" };
  const call = () => vitrina.capabilities.invoke("catalog.search", { search: "mir", limit: 5 }, { principal });
  for (let i = 0; i < 500; i++) await call();
  const calls = 5000;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const used = process.cpuUsage(cpu);
  await vitrina.close();
  return { perSecond: calls / ((performance.now() - started) / 1000), cpuUsPerCall: (used.user + used.system) / calls };
}

export async function run() {
  const kinds = ["bare-session", "bare-per-request", "vitrina", "vitrina-rest", "vitrina-a2a"];
  // autocannon's second opinion on the generator is the lead-intake section's.
  const ceiling = await generatorCeiling({ connections, durationMs, secondOpinion: false });
  const results = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const servers = {};
  try {
    for (const kind of kinds) servers[kind] = await startServer("mcp-server.mjs", [kind]);
    for (const kind of kinds.filter((k) => !(k in PROFILES))) await checkOneCall(kind, servers[kind]);
    await checkOneA2aCall(servers["vitrina-a2a"]);
    for (let round = 0; round < ROUNDS; round++)
      for (const kind of kinds)
        results[kind].push(
          await measureServer(servers[kind], {
            profile: PROFILES[kind] ?? "mcp",
            connections,
            durationMs,
            warmupMs: round === 0 ? WARMUP_MS : REWARM_MS,
          }),
        );
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const session = medianRound(results["bare-session"]);
  const perRequest = medianRound(results["bare-per-request"]);
  const vitrina = medianRound(results.vitrina);
  const rest = medianRound(results["vitrina-rest"]);
  const a2a = medianRound(results["vitrina-a2a"]);
  const runtime = await runtimeInvoke();
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
    loadRow("vitrina GET /v1/rest/catalog.search", rest, { label: "MCP tools/call", ...vitrina }),
    loadRow("vitrina POST /a2a SendMessage catalog.search", a2a, { label: "MCP tools/call", ...vitrina }),
    {
      case: "vitrina capabilities.invoke(catalog.search), in process, no HTTP",
      value: runtime.perSecond,
      unit: "calls/s",
      note: `${runtime.cpuUsPerCall.toFixed(0)} µs CPU/call; REST server CPU/req is ${(rest.serverCpuUsPerRequest / runtime.cpuUsPerCall).toFixed(1)}× that, A2A ${(a2a.serverCpuUsPerRequest / runtime.cpuUsPerCall).toFixed(1)}×, MCP ${(vitrina.serverCpuUsPerRequest / runtime.cpuUsPerCall).toFixed(1)}×`,
    },
  ];
}
