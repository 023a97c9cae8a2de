import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where PgBouncer is, or why it can't be used here (printed by the suites that skip). */
export function pgbouncerBinary(): { path: string } | { reason: string } {
  for (const path of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"]) {
    if (spawnSync(path, ["--version"]).status === 0) return { path };
  }
  const which = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim() !== "") return { path: which.stdout.trim() };
  return { reason: "pgbouncer is not installed (apt-get install pgbouncer; .ci/run does)" };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

export interface RunningPgBouncer {
  /** `databaseUrl` with host and port replaced by the pooler's. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A PgBouncer of our own on 127.0.0.1 (a free port) in front of `databaseUrl`'s server, with trust
 * auth for its user and `pool_size` server connections per database/user pair, so clients really
 * share them. PgBouncer refuses to run as root: then it is started with `-u postgres`, and its
 * directory is made readable to that user.
 */
export async function startPgBouncer(
  binary: string,
  databaseUrl: string,
  options: { poolMode: "transaction" | "session"; poolSize?: number; ignoreStartupParameters?: string[] },
): Promise<RunningPgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || "postgres");
  const database = decodeURIComponent(target.pathname.slice(1) || user);
  const dir = await mkdtemp(join(tmpdir(), "vitrina-pgbouncer-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  await writeFile(join(dir, "userlist.txt"), `"${user}" ""\n`);
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      `pool_mode = ${options.poolMode}`,
      `default_pool_size = ${options.poolSize ?? 2}`,
      "max_client_conn = 500",
      ...(options.ignoreStartupParameters
        ? [`ignore_startup_parameters = ${options.ignoreStartupParameters.join(",")}`]
        : []),
      `logfile = ${join(dir, "pgbouncer.log")}`,
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  child.once("exit", () => (exited = true));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      child.kill();
      const log = await readFile(join(dir, "pgbouncer.log"), "utf8").catch(() => "");
      await rm(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start: ${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    port,
    async stop() {
      if (!exited) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
