/**
 * The app as an installable web app: the product's manifest and icons, a service worker that takes
 * control, and the shell served by it with the network gone.
 */
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newContext, shellKeptOffline } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

describe('installable', () => {
  test('links the product’s manifest, whose icons exist', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/sign-in');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await (await page.request.get(href ?? '')).json();
    expect(manifest).toMatchObject({ name: 'Expense claims', display: 'standalone', start_url: '/' });
    for (const icon of manifest.icons as { src: string; type: string }[]) {
      const response = await page.request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()['content-type']).toContain(icon.type);
    }
    await context.close();
  });

  // last: it stops the server
  test('serves the shell from its service worker when the server cannot be reached', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // the worker installs, precaches the shell and takes control
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // and the page itself, with the model inside, is kept
    await shellKeptOffline(page);

    // the server goes away: from here on every request to it fails
    await example.close();
    await page.goto('/sign-in?offline');
    // the page and its code came from the cache: the sign-in form renders, with the product's name
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Expense claims');
    await context.close();
  });
});
