/**
 * Feedback and flow in real Chromium (decision 0066): a list's columns keep the widths they had
 * before its first rows when rows with an 80-character word or 80 emoji arrive, and such a value
 * stays inside its cell; a transition's toast shows, links to the record, and passes axe, as does
 * the detail page with its folded empty fields.
 */
/* global window, ResizeObserver -- in the page */
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiRecord, createRecord } from './harness/arrange.js';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, newContext, settled, signInOn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
  const context = await newContext(browser, example);
  page = await context.newPage();
  await signInOn(page, example, 'employee');
}, 60_000);
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** A claim of the employee's, with the title given. */
async function claimTitled(title: string): Promise<ApiRecord> {
  const { record } = await createRecord(example, 'Claim', { as: 'employee' });
  const changed = await example.api<ApiRecord>(
    'employee',
    'PATCH',
    `claims/${record.id}`,
    { title },
    { 'if-match': `"${String(record.version)}"` },
  );
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return changed.body;
}

/** The widths of the list's header cells, in pixels. */
const headerWidths = (p: Page) =>
  p.locator('table thead th').evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width));

describe('a list’s column widths', () => {
  test('stay as they were when rows with an 80-character word and 80 emoji arrive', async () => {
    for (const title of ['Train to Lyon', 'Client lunch', 'Taxi to the airport']) await claimTitled(title);
    await page.goto('/my-claims');
    await page.locator('tbody [data-record]').first().waitFor();
    await settled(page);
    const before = await headerWidths(page);
    // every change of a header cell's width from now on, as the page sees it
    await page.locator('table thead').evaluate((head) => {
      const changes: number[] = [];
      (window as unknown as { __widthChanges: number[] }).__widthChanges = changes;
      // each cell's first report is its width as it is: only a different one later is a change
      const seen = new Map<Element, number>();
      const observer = new ResizeObserver((entries) => {
        for (const entry of entries) {
          const width = entry.contentRect.width;
          const was = seen.get(entry.target);
          if (was === undefined) seen.set(entry.target, width);
          else if (Math.abs(was - width) > 0.5) changes.push(width);
        }
      });
      for (const cell of head.querySelectorAll('th')) observer.observe(cell);
    });

    const word = 'W'.repeat(80);
    const emoji = '😀'.repeat(80);
    await claimTitled(word);
    await claimTitled(emoji);
    // the rows arrive in the same table: the live list holds others' new rows until asked
    await page.getByRole('button', { name: /^2 new .+ — show$/ }).click();
    await page.getByRole('link', { name: word }).waitFor();
    await page.getByRole('link', { name: emoji }).waitFor();
    await page.waitForTimeout(300);

    const after = await headerWidths(page);
    expect(after).toHaveLength(before.length);
    after.forEach((width, i) => expect(width, `column ${i + 1}`).toBeCloseTo(before[i] ?? -1, 0));
    const changes = await page.evaluate(
      () => (window as unknown as { __widthChanges: number[] }).__widthChanges,
    );
    expect(changes, 'a header cell changed its width').toEqual([]);
    // the long values wrap inside their own cell, without spilling into the next
    for (const text of [word, emoji]) {
      const cell = page.locator('tbody td', { has: page.getByRole('link', { name: text }) });
      const fits = await cell.evaluate((td) => td.scrollWidth <= td.clientWidth + 1);
      expect(fits, `${text.slice(0, 4)}… spills out of its cell`).toBe(true);
    }
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe('a transition’s toast', () => {
  test('links to the record, and the page with it and the folded empty fields passes axe', async () => {
    const claim = await claimTitled('Hotel in Ghent for the fair');
    await page.goto(`/claims/${claim.id}`);
    await settled(page);
    const empty = page.getByTestId('empty-fields');
    await expect.poll(() => empty.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    // the fold opens from the keyboard
    await empty.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => empty.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('dialog', { name: 'Submit' }).getByRole('button', { name: 'Submit' }).click();
    const toast = page.locator('[data-toast]', { hasText: 'Claim moved to Waiting for approval' });
    await toast.waitFor();
    expect(await toast.getByRole('link').getAttribute('href')).toBe(`/claims/${claim.id}`);
    expect(await toast.isVisible()).toBe(true);
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe('a delete held for its Undo', () => {
  test('reaches the server when the page is left before the Undo’s time is up', async () => {
    const claim = await claimTitled('Parking ticket by mistake');
    const context = await newContext(browser, example);
    try {
      const leaving = await context.newPage();
      await signInOn(leaving, example, 'employee');
      await leaving.goto(`/claims/${claim.id}`);
      await settled(leaving);
      await leaving.getByRole('button', { name: 'Delete' }).click();
      const dialog = leaving.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      // the toast offers Undo: the delete has not been sent
      await leaving.getByRole('button', { name: 'Undo' }).waitFor();
      const still = await example.api('employee', 'GET', `claims/${claim.id}`);
      expect(still.status).toBe(200);
      // the reader goes to another site: the held delete leaves with the page (keepalive)
      await leaving.goto('about:blank');
      await expect
        .poll(async () => (await example.api('employee', 'GET', `claims/${claim.id}`)).status, {
          timeout: 5_000,
        })
        .toBe(404);
    } finally {
      await context.close();
    }
  });
});
