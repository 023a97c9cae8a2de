import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { seedPgliteDataDir } from "../../adapter-postgres/test/support.js";
import { LOCK_FILE, lockDataDir } from "../src/config/data-dir-lock.js";
import { storageFromEnv } from "../src/config/storage-from-env.js";
import { runCli } from "./support/cli-main.js";
import { sourceBundle } from "./support/run-cli.js";

const demoServer = fileURLToPath(new URL("../../../examples/server/src/main.mjs", import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vitrina-lock-"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ VITRINA_DATA_DIR: dir, DATABASE_URL: "", VITRINA_STORAGE: "" });
const childEnv = () => ({ ...process.env, ...env(), PORT: "0", VITRINA_SECRET_KEY: "" });

/** The pid of a process that has already exited: what a crash leaves in the lock file. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

/** Runs the `vitrina` CLI in this process (its `main`): the demo server is the other process. */
const cli = (...args: string[]) => runCli(args, { env: { ...env(), VITRINA_SECRET_KEY: "" } });

/**
 * Starts the demo server (examples/server, bundled from the sources) in a separate process, on the
 * data dir holding an empty PGlite database to migrate (a copy: no initdb in the child).
 */
async function startDemoServer(): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const [main] = await Promise.all([sourceBundle(demoServer), seedPgliteDataDir(join(dir, "pglite"))]);
  const child = spawn(process.execPath, [main], {
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Stop with Ctrl-C")) resolve();
    });
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`demo server exited with ${code}: ${output}`)));
  });
  return { child, exited };
}

describe("PGlite data directory lock", () => {
  it("refuses a second opener in this process, naming it, and frees the directory on release", () => {
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(
      expect.objectContaining({
        code: "storage_unavailable",
        message: expect.stringContaining(`process ${process.pid} (this process)`),
      }),
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir).release();
  });

  it("takes over a lock left by a process that is gone, and one it can't read, with a warning", async () => {
    const pid = await deadPid();
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid,
        hostname: hostname(),
        startedAt: "2020-01-01T00:00:00Z",
        command: "vitrina api-keys issue",
      }),
    );
    const warn = vi.fn();
    const lock = lockDataDir(dir, warn);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        new RegExp(`left by process ${pid} \\(vitrina api-keys issue\\), which is no longer running`),
      ),
    );
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname() });
    lock.release();
    await writeFile(join(dir, LOCK_FILE), "");
    lockDataDir(dir, warn).release();
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining("an unreadable lock file"));
  });

  it("takes over a lock naming a pid now used by another process (a container restart), told apart by its start time", async () => {
    const lockPath = join(dir, LOCK_FILE);
    const lockOf = (pid: number, processStart?: string) =>
      JSON.stringify({
        pid,
        hostname: hostname(),
        startedAt: "2020-01-01T00:00:00Z",
        command: "main.mjs",
        processStart,
      });
    // This very pid, written by an earlier process: after a restart the server is often pid 1 again.
    await writeFile(lockPath, lockOf(process.pid, "1"));
    const warn = vi.fn();
    lockDataDir(dir, warn).release();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`left by process ${process.pid} (main.mjs)`));
    // A live process that holds the recorded pid but started at another time is not the holder.
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      await new Promise((resolve) => other.once("spawn", resolve));
      const started = (await readFile(`/proc/${other.pid}/stat`, "utf8")).split(") ")[1]!.split(" ")[19]!;
      await writeFile(lockPath, lockOf(other.pid!, String(Number(started) + 1)));
      lockDataDir(dir, warn).release();
      expect(warn).toHaveBeenLastCalledWith(expect.stringContaining(`left by process ${other.pid} (main.mjs)`));
      // The same pid and start time: that process holds it.
      await writeFile(lockPath, lockOf(other.pid!, started));
      expect(() => lockDataDir(dir, warn)).toThrow(new RegExp(`in use by process ${other.pid} `));
      // A lock that recorded no start time (another OS, an older version): a live pid holds it.
      await writeFile(lockPath, lockOf(other.pid!));
      expect(() => lockDataDir(dir, warn)).toThrow(new RegExp(`in use by process ${other.pid} `));
    } finally {
      other.kill();
    }
  });

  it("still refuses this process's own second opener when the directory is spelled another way", async () => {
    const link = `${dir}-link`;
    await symlink(dir, link);
    try {
      const lock = lockDataDir(dir);
      expect(() => lockDataDir(link)).toThrow(`process ${process.pid} (this process)`);
      lock.release();
    } finally {
      await rm(link, { force: true });
    }
  });

  it("refuses a lock held on another host: it can't tell whether that process still runs", async () => {
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: 1,
        hostname: `${hostname()}-elsewhere`,
        startedAt: "2020-01-01T00:00:00Z",
        command: "main.mjs",
      }),
    );
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process 1 on ${hostname()}-elsewhere`));
  });

  it("with the demo server running, the CLI and this process fail at once; after a crash the lock is taken over", async () => {
    const server = await startDemoServer();
    try {
      const holder = JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8"));
      expect(holder).toMatchObject({ pid: server.child.pid, hostname: hostname(), command: "main.mjs" });
      const message = new RegExp(
        `the PGlite data directory ${dir} is in use by process ${server.child.pid} \\(main\\.mjs, since ${holder.startedAt}\\); stop it, or use DATABASE_URL`,
      );

      // The CLI and storageFromEnv each find the lock (and change nothing): side by side.
      const [issued] = await Promise.all([
        cli("api-keys", "issue", "--workspace", "w", "--user", "ana", "--name", "k", "--scopes", "catalog:read"),
        expect(storageFromEnv({ env: env() })).rejects.toMatchObject({
          code: "storage_unavailable",
          message: expect.stringMatching(message),
        }),
      ]);
      expect(issued.code).not.toBe(0);
      expect(issued.stdout).toBe("");
      expect(issued.stderr).toMatch(/^vitrina: storage_unavailable: /);
      expect(issued.stderr).toMatch(message);
    } finally {
      server.child.kill("SIGKILL");
      await server.exited;
    }

    // SIGKILL runs no exit handler: the lock stays, and the next opener takes it over.
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const configured = await storageFromEnv({ env: env() });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(`left by process ${server.child.pid} (main.mjs), which is no longer running`),
    );
    await configured.storage.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    // With the directory free, the CLI works and leaves no lock behind.
    const created = await cli("workspaces", "create", "--name", "Andes", "--owner", "ana");
    expect(created).toMatchObject({ code: 0, stderr: "" });
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 180_000);

  it("a graceful stop of the server (SIGTERM) releases the directory", async () => {
    const server = await startDemoServer();
    server.child.kill("SIGTERM");
    await server.exited;
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 120_000);
});
