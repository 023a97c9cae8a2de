import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** No serious or critical axe-core violation on this screen, and a screenshot of it in `shots`. */
export async function axeCheck(page: Page, name: string, shots: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: `${shots}${name}.png`, fullPage: true });
}
