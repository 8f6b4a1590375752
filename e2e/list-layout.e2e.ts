/**
 * A list's first frame in real Chromium: its rows come before its filters, whose placeholder holds
 * their exact place, so nothing moves when the filters replace it (no layout shift at all). Where
 * the server drew the rows into the page (decision 0018), the app's rows take their exact place.
 */
/* global window, document, PerformanceObserver, MutationObserver -- in the page */
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { DESKTOP, PHONE, launchBrowser, newContext, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
  await signIn(browser, example, 'employee').then((session) => session.context.close());
  await createRecord(example, 'Claim', { as: 'employee' });
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

interface FirstFrame {
  /** The first row's top in the frame it first appeared in, and whether the filters were placeholders. */
  readonly first: { readonly top: number; readonly placeholder: boolean } | null;
  readonly shifts: number[];
  readonly moved: string[];
}

/** Runs in the page before its scripts: notes the first row's place when it first appears. */
function watchFirstRow() {
  const seen: { first: FirstFrame['first']; shifts: number[]; moved: string[] } = {
    first: null,
    shifts: [],
    moved: [],
  };
  (window as unknown as { __firstFrame: typeof seen }).__firstFrame = seen;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const shift = entry as unknown as { value: number; sources: { node: Node | null }[] };
      seen.shifts.push(shift.value);
      // what moved, for the failure's message
      seen.moved.push(...shift.sources.map((s) => (s.node?.textContent ?? '').slice(0, 30)));
    }
  }).observe({ type: 'layout-shift', buffered: true });
  // where the first visible row stands in the first frame it is in: read in that frame's animation
  // callback, which the browser runs once the page's styles are in (before that, nothing is drawn)
  const firstVisibleRow = () =>
    [...document.querySelectorAll('[data-record]')].find((row) =>
      row.checkVisibility({ visibilityProperty: true }),
    ) ?? null;
  let asked = false;
  const observer = new MutationObserver(() => {
    if (asked || document.querySelector('[data-record]') === null) return;
    asked = true;
    const look = () => {
      const row = firstVisibleRow(); // the prerender of the rows (not on phones), or the app's
      if (row === null) {
        asked = false; // only hidden rows so far: a phone's prerender, before the app's own
        return;
      }
      observer.disconnect();
      const placeholder = document.querySelector('section[aria-label="Filters"][aria-busy="true"]') !== null;
      seen.first = { top: row.getBoundingClientRect().top + window.scrollY, placeholder };
    };
    requestAnimationFrame(look);
  });
  observer.observe(document, { childList: true, subtree: true });
}

describe('a list’s first frame', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['tablet', { width: 800, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    test(`${name}: the rows come before the filters, and nothing moves when the filters come`, async () => {
      const context = await newContext(browser, example, { viewport });
      const cookie = example.cookies.get('employee') ?? '';
      const [cookieName = '', value = ''] = cookie.split('=');
      await context.addCookies([{ name: cookieName, value, url: example.url }]);
      const page = await context.newPage();
      await page.addInitScript(watchFirstRow);
      // as slow as the benchmark's phone-like CPU, so that the first frame is one of its own
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto('/my-claims');
      await page.locator('[data-record]').first().waitFor();
      // the filters themselves (folded away on a phone: there, but hidden)
      await page.locator('section[aria-label="Filters"]:not([aria-busy])').waitFor({ state: 'attached' });
      await page.waitForTimeout(500);
      const frame = await page.evaluate(
        () => (window as unknown as { __firstFrame: FirstFrame }).__firstFrame,
      );
      const top = await page
        .locator('[data-record]')
        .first()
        .evaluate((row) => row.getBoundingClientRect().top + window.scrollY);
      // a phone folds the filters away, and renders their hidden inside later anyway
      if (name !== 'phone') expect(frame.first?.placeholder).toBe(true);
      expect(top, JSON.stringify(frame)).toBeCloseTo(frame.first?.top ?? -1, 0);
      expect(
        frame.shifts.reduce((a, b) => a + b, 0),
        JSON.stringify(frame),
      ).toBeLessThan(0.001);
      await context.close();
    });
  }
});
