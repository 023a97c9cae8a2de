import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { VitrinaError } from "@vitrina/core";

/**
 * PGlite is an embedded database: two processes opening one data directory each believe they own
 * it, and writes from one are lost to the other (even after a restart). So the directory carries a
 * lock file naming its holder; a second opener fails at once and says who holds it.
 */
export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. Idempotent; also runs on process exit. */
  release(): void;
}

interface Holder {
  pid: number;
  hostname: string;
  startedAt: string;
  command: string;
  /**
   * When the kernel started the holder, in clock ticks since boot (`/proc/<pid>/stat`, Linux
   * only; absent elsewhere and in locks written before it was recorded). A pid is reused: after a
   * container restart a lock names the same pid, and the same host name, as a live but unrelated
   * process (often this very one); the start time tells them apart.
   */
  processStart?: string;
}

/** `pid`'s start time in clock ticks since boot, or undefined where `/proc` can't tell (not Linux, gone). */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may itself hold spaces or ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19]; // field 22 of proc(5): starttime
  } catch {
    return undefined;
  }
}

export const LOCK_FILE = "vitrina.lock";

function readHolder(path: string): { raw: string; holder: Holder | null } | null {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<Holder>;
    return Number.isInteger(parsed.pid) && typeof parsed.hostname === "string"
      ? { raw, holder: parsed as Holder }
      : { raw, holder: null };
  } catch {
    return { raw, holder: null };
  }
}

/**
 * Whether `holder` may still be running: on this host, ask the kernel whether its pid is in use
 * and, where the lock recorded it, whether the process using it started when the holder did (the
 * same start time and this pid: this very process, from another opener or thread); on another
 * host, assume so.
 */
function mayBeAlive(holder: Holder): boolean {
  if (holder.hostname !== hostname()) return true;
  if (holder.pid !== process.pid) {
    try {
      process.kill(holder.pid, 0);
    } catch (error) {
      // EPERM: the process exists but belongs to another user.
      if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
    }
  }
  const started = holder.processStart === undefined ? undefined : processStartOf(holder.pid);
  return started === undefined || started === holder.processStart;
}

function inUse(dir: string, holder: Holder, lockPath: string): VitrinaError {
  const who = `process ${holder.pid}${holder.hostname === hostname() ? "" : ` on ${holder.hostname}`}${holder.pid === process.pid ? " (this process)" : ""}`;
  return new VitrinaError(
    "storage_unavailable",
    `the PGlite data directory ${dir} is in use by ${who} (${holder.command}, since ${holder.startedAt}); ` +
      `stop it, or use DATABASE_URL to share a PostgreSQL server between processes. ` +
      `If that process is gone, delete ${lockPath}.`,
    { reasons: [{ field: "VITRINA_DATA_DIR", reason: `in use by ${who}` }] },
  );
}

/**
 * Creates `path` holding `content`, or returns false if it exists. Written to a private file first
 * and linked into place, so no reader ever sees a half-written lock.
 */
function createExclusively(path: string, content: string): boolean {
  const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, content, { mode: 0o644 });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function unlinkIfUnchanged(path: string, raw: string): void {
  if (readHolder(path)?.raw === raw) unlinkSync(path);
}

/**
 * Takes `<dir>/vitrina.lock` for this process. A lock left by a process that is gone (a crash, a
 * kill -9) is taken over with a warning; one held by a live process fails with `storage_unavailable`.
 * Taking over goes through a second, short-lived guard file so two processes starting at once
 * can't both replace the same stale lock.
 */
export function lockDataDir(
  dir: string,
  warn: (message: string) => void = (m) => console.warn(`vitrina: ${m}`),
): DataDirLock {
  const path = join(dir, LOCK_FILE);
  const guardPath = `${path}.takeover`;
  const content = `${JSON.stringify({
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: [basename(process.argv[1] ?? process.argv0), ...process.argv.slice(2)].join(" ").slice(0, 200),
    processStart: processStartOf(process.pid),
  } satisfies Holder)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusively(path, content)) return held(path, content);
    const current = readHolder(path);
    if (current === null) continue; // released between our attempt and our read
    if (current.holder !== null && mayBeAlive(current.holder)) throw inUse(dir, current.holder, path);
    if (!createExclusively(guardPath, content)) {
      const guard = readHolder(guardPath);
      if (guard?.holder && mayBeAlive(guard.holder)) throw inUse(dir, guard.holder, path);
      if (guard !== null) unlinkIfUnchanged(guardPath, guard.raw); // left by a crash mid-takeover
      continue;
    }
    try {
      unlinkIfUnchanged(path, current.raw);
      if (createExclusively(path, content)) {
        warn(
          `took over ${path}, left by ${current.holder ? `process ${current.holder.pid} (${current.holder.command}), which is no longer running` : "an unreadable lock file"}`,
        );
        return held(path, content);
      }
    } finally {
      unlinkIfUnchanged(guardPath, content);
    }
  }
  const last = readHolder(path)?.holder;
  throw last
    ? inUse(dir, last, path)
    : new VitrinaError("storage_unavailable", `could not lock the PGlite data directory ${dir}`);
}

function held(path: string, content: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      unlinkIfUnchanged(path, content);
    } catch {
      // The directory went away: nothing left to release.
    }
  };
  process.on("exit", release);
  return { path, release };
}
