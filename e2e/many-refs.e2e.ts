/**
 * A list of refs in real Chromium (decision 0044): an employee picks a claim's attendees with the
 * searchable multi-select (the options searched through the API), saves, and the claim's page shows
 * them as chips of their names in the order picked — never ids — with no axe problem on either page.
 */
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, settled, signIn } from './harness/browser.js';
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

describe('a list of refs', () => {
  test('is picked with the multi-select and shown as chips of names, in order', async () => {
    const { record } = await createRecord(example, 'Claim', { as: 'employee' });
    // start from no attendees, so the picks alone make the list
    const cleared = await example.api(
      'employee',
      'PATCH',
      `claims/${record.id}`,
      { attendees: null },
      { 'if-match': `"${String(record.version)}"` },
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const users = await example.api<{ data: { id: string; name: string }[] }>(
      'employee',
      'GET',
      'users?limit=10',
    );
    expect(users.status).toBe(200);
    const picks = users.body.data.filter((u) => u.name.length >= 3).slice(0, 2);
    expect(picks).toHaveLength(2);

    const { page } = await signIn(browser, example, 'employee');
    await page.goto(`/claims/${record.id}/edit`);
    await settled(page);
    const box = page.getByRole('combobox', { name: 'Attendees' });
    for (const user of picks) {
      await box.click();
      await box.fill(user.name.slice(0, 3));
      await page.getByRole('option', { name: user.name, exact: true }).click();
    }
    await box.click();
    expect(await axeProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`/claims/${record.id}$`));
    await settled(page);

    const saved = await example.api<{ attendees: string[] }>('employee', 'GET', `claims/${record.id}`);
    expect(saved.body.attendees).toEqual(picks.map((u) => u.id));
    // the field on the page (the history lists the change too)
    const chips = page.locator('[data-field="attendees"]').getByRole('list', { name: 'Attendees' });
    await expect
      .poll(async () => chips.getByRole('listitem').allTextContents())
      .toEqual(picks.map((u) => u.name));
    for (const user of picks) expect(await chips.textContent()).not.toContain(user.id);
    expect(await axeProblems(page)).toEqual([]);
  }, 120_000);
});
