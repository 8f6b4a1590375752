/**
 * The offline queue in real Chromium against the real server: a change made with the network gone
 * is kept on the device and shown as pending, survives a reload made offline, and is sent once
 * when the network returns.
 */
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { launchBrowser, shellKeptOffline, signIn } from './harness/browser.js';
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

/** What this device keeps in its offline queues: the number of writes in each. */
const QUEUED = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith('ninefold.offline'))
    .map((key) => (JSON.parse(localStorage.getItem(key) ?? '[]') as unknown[]).length);

describe('the offline queue', () => {
  test('keeps a change made offline, through a reload, and sends it once when back online', async () => {
    const { context, page } = await signIn(browser, example, 'employee');
    const { record } = await createRecord(example, 'Claim', { as: 'employee' });
    const id = record.id;
    const before = String(record['title']);
    const after = `${before} (changed offline)`;

    // the service worker keeps the page, so that it opens again without the network
    await page.goto(`/claims/${id}/edit`);
    const title = page.getByLabel(/^Title/);
    await title.waitFor();
    await shellKeptOffline(page);

    await context.setOffline(true);
    await title.fill(after);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/your change is saved on this device/).waitFor();
    const indicator = page.getByRole('button', { name: /Show the changes on this device/ });
    await expect.poll(() => indicator.textContent()).toContain('1 waiting');
    expect(await page.getByTestId('offline-status').textContent()).toContain(
      'Offline. 1 change saved on this device, waiting to be sent.',
    );

    // its record says it waits
    await page.getByRole('button', { name: 'Done' }).click();
    const pending = page.getByTestId('record-pending');
    await pending.waitFor();
    expect(await pending.textContent()).toContain(`Changes to claim “${before}”`);
    expect((await example.api('employee', 'GET', `claims/${id}`)).body.title).toBe(before);

    // a reload without the network: the page comes from the worker, the change from the device
    await page.reload();
    await page.locator('#root').waitFor();
    expect(await page.evaluate(QUEUED)).toEqual([1]);
    expect((await example.api('employee', 'GET', `claims/${id}`)).body.title).toBe(before);

    // back online: the app finds its session again and sends the change, once
    await context.setOffline(false);
    await expect
      .poll(async () => (await example.api('employee', 'GET', `claims/${id}`)).body.title, {
        timeout: 30_000,
      })
      .toBe(after);
    await expect.poll(() => page.evaluate(QUEUED), { timeout: 10_000 }).toEqual([]);
    const history = await example.api('employee', 'GET', `claims/${id}/history`);
    const updates = (history.body.data as { action: string }[]).filter((entry) => entry.action === 'update');
    expect(updates).toHaveLength(1);
    await page.getByRole('heading', { level: 1, name: after }).waitFor();
    expect(await page.getByTestId('record-pending').count()).toBe(0);
    await context.close();
  });
});
