// Where the demo server writes its credentials and how the examples find them, so the README's
// tour runs without environment variables: `pnpm start`, then any example, in any order.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const CREDENTIALS_FILE_NAME = "demo-credentials.json";

/** Where the demo server writes: VITRINA_DEMO_CREDENTIALS, else `<data dir>/demo-credentials.json`. */
export function demoCredentialsPath(env = process.env) {
  return resolve(env.VITRINA_DEMO_CREDENTIALS ?? join(env.VITRINA_DATA_DIR ?? ".vitrina", CREDENTIALS_FILE_NAME));
}

/**
 * Where an example looks: the path the server would write to from here, then `.vitrina/` in each
 * parent directory (an example started from its own folder), then the repository root's.
 */
function candidatePaths(env) {
  if (env.VITRINA_DEMO_CREDENTIALS || env.VITRINA_DATA_DIR) return [demoCredentialsPath(env)];
  const paths = [];
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    paths.push(join(dir, ".vitrina", CREDENTIALS_FILE_NAME));
    if (dirname(dir) === dir) break;
  }
  paths.push(fileURLToPath(new URL(`../.vitrina/${CREDENTIALS_FILE_NAME}`, import.meta.url)));
  return paths;
}

/** The demo's credentials and the file they came from, or `null` when no demo has written any. */
export function findDemoCredentials(env = process.env) {
  const path = candidatePaths(env).find((p) => existsSync(p));
  return path ? { path, credentials: JSON.parse(readFileSync(path, "utf8")) } : null;
}
