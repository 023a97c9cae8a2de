import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { axeCheck } from "./axe-check.js";
import { startConsoleServer, startReceiver } from "./console-server.js";

// The console in a real browser: Debian's Chromium driven by playwright-core against a real
// server on PGlite. `.ci/run` installs Chromium when it is missing; elsewhere these tests skip
// and say why. Screenshots of every screen land in the git-ignored screenshots/console/.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) {
  const why = `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (CI does) or set CHROMIUM_PATH`;
  if (process.env.CI === "true") throw new Error(`console browser tests cannot run in CI: ${why}`);
  console.warn(`skipping the console browser tests: ${why}`);
}
const SHOTS = fileURLToPath(new URL("../../../../screenshots/console/", import.meta.url));

/**
 * A console server, a webhook receiver and Chromium for the enclosing `describe`, started before
 * its tests and closed after; read them through the returned getters once the tests run.
 */
export function useConsoleBrowser() {
  let server: Awaited<ReturnType<typeof startConsoleServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [server, receiver, browser] = await Promise.all([
      startConsoleServer(),
      startReceiver(),
      chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });
  return { server: () => server, receiver: () => receiver, browser: () => browser };
}

/** `axeCheck` (support/axe-check.ts) with this suite's screenshot folder. */
export const checkScreen = (page: Page, name: string) => axeCheck(page, name, SHOTS);
