/**
 * axe-core in the page: injected from node_modules, run on the whole document; serious and
 * critical violations fail, each reported with its rule, help and the offending elements.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations on the page, one readable line each (empty when none). */
export async function axeProblems(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // evaluated through the DevTools protocol, which the page's CSP does not govern: the app keeps
  // its real policy (`script-src 'self'`) under test
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  const url = new URL(page.url()).pathname;
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${url}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}
