/**
 * A list's first rows prerendered into the page (decision 0018), in real Chromium: on screen
 * before any of the app's code has run, styled as the app styles them, then replaced by the app's
 * own rows in the same commit, from the same data, without asking the API again; never for a
 * browser whose own settings would make the app render it otherwise, and never kept offline.
 */
/* global window, document, MutationObserver, caches -- in the page */
import { type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { launchBrowser, newContext, shellKeptOffline, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
let title: string;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
  await signIn(browser, example, 'employee').then((session) => session.context.close());
  const { record } = await createRecord(example, 'Claim', { as: 'employee' });
  title = String(record['title']);
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** A context signed in as the employee, through the session cookie the harness keeps. */
async function signedIn(): Promise<BrowserContext> {
  const context = await newContext(browser, example);
  const [name = '', value = ''] = (example.cookies.get('employee') ?? '').split('=');
  await context.addCookies([{ name, value, url: example.url }]);
  return context;
}

/** Shows or hides a column of the list through its "Columns" menu. */
async function toggleColumn(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: label }).click();
  await page.keyboard.press('Escape');
}

/** Runs in the page before its scripts: notes what the app's root holds when the prerender goes. */
function watchHandOver() {
  const seen = { rowsInApp: -1, at: -1 };
  (window as unknown as { __handOver: typeof seen }).__handOver = seen;
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.removedNodes)
        if ((node as Element).id === 'nf-prerender') {
          seen.rowsInApp = document.querySelectorAll('#root [data-record]').length;
          seen.at = performance.now();
          observer.disconnect();
        }
  });
  observer.observe(document, { childList: true, subtree: true });
}

describe('a list’s first rows, prerendered', () => {
  test('are on screen, styled, before any of the app’s code runs', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/my-claims');
    const row = page.locator('#nf-prerender [data-record]').filter({ hasText: title });
    await expect.poll(() => row.isVisible()).toBe(true);
    // the list's own styles are linked with the prerender: a row is as tall as the app renders it
    const box = await row.boundingBox();
    expect(box?.height).toBeGreaterThan(40);
    expect(await page.locator('#nf-prerender h1').textContent()).toBe('My claims');
    // a picture, not yet the app: nothing in it takes the focus or clicks
    expect(await page.locator('#nf-prerender').getAttribute('inert')).not.toBeNull();
    await context.close();
  });

  test('show only once all of them have arrived', async () => {
    // a page cut off after part of its prerender, as a slow network delivers it: a table shown then
    // would widen its columns as its last rows arrive
    const context = await signedIn();
    const page = await context.newPage();
    const whole = await (await context.request.get('/my-claims')).text();
    const cut = whole.slice(0, whole.indexOf('<div id="root">') - 200);
    expect(cut).toContain('id="nf-prerender"');
    await page.route('**/assets/*.js', (route) => route.abort());
    const list = (url: URL) => url.pathname === '/my-claims';
    const shown = () =>
      page
        .locator('#nf-prerender')
        .evaluate((prerender) => prerender.checkVisibility({ visibilityProperty: true }));
    await page.route(list, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: cut }));
    await page.goto('/my-claims');
    expect(await shown()).toBe(false);
    // the whole page: the prerender shows
    await page.unroute(list);
    await page.goto('/my-claims');
    expect(await shown()).toBe(true);
    await context.close();
  });

  test('give way to the app’s rows in one commit, which asks the API for nothing', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.addInitScript(watchHandOver);
    const asked: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
    });
    await page.goto('/my-claims');
    await page.locator('#root [data-record]').filter({ hasText: title }).waitFor();
    await expect.poll(() => page.locator('#nf-prerender').count()).toBe(0);
    const handOver = await page.evaluate(
      () => (window as unknown as { __handOver: { rowsInApp: number } }).__handOver,
    );
    // when the prerender left the page, the app's rows were already in it: no frame showed neither
    expect(handOver.rowsInApp).toBeGreaterThan(0);
    // the session and the rows came with the page
    expect(asked.filter((path) => path === '/api/session' || path.startsWith('/api/claims?'))).toEqual([]);
    await context.close();
  });

  test('are not prerendered for a browser that hides columns of the list', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto('/my-claims');
    await page.locator('#root [data-record]').first().waitFor();
    await toggleColumn(page, 'Category');
    const response = await page.reload();
    expect(response?.headers()['x-ninefold-prerendered']).toBeUndefined();
    expect(await response?.text()).not.toContain('id="nf-prerender"');
    // the app renders the list as this browser keeps it
    await page.locator('#root [data-record]').first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'Category' }).count()).toBe(0);
    // shown again: the rows are prerendered again
    await toggleColumn(page, 'Category');
    expect((await page.reload())?.headers()['x-ninefold-prerendered']).toBe('1');
    await context.close();
  });

  test('are never what the service worker keeps for offline use', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto('/my-claims');
    await page.locator('#root [data-record]').first().waitFor();
    await shellKeptOffline(page);
    // a later navigation through the worker, with a prerender: still not kept. (The app keeps the
    // page of `/` at every start too, which would hide a prerender the worker kept: not this time.)
    await page.route(
      (url) => url.pathname === '/',
      (route) => route.abort(),
    );
    const again = await page.reload();
    expect(again?.fromServiceWorker()).toBe(true);
    expect(again?.headers()['x-ninefold-prerendered']).toBe('1');
    await page.locator('#root [data-record]').first().waitFor();
    await page.waitForLoadState('load');
    const kept = await page.evaluate(async () => {
      const response = await (await caches.open('ninefold-shell')).match('/__ninefold-shell');
      return response === undefined ? null : await response.text();
    });
    expect(kept).toContain('id="ninefold-model"');
    expect(kept).not.toContain('nf-prerender');
    expect(kept).not.toContain(title);
    await context.close();
  });
});
