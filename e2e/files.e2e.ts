/**
 * Files in real Chromium (issue 18, decision 0055), on the expense claims: an employee creates a
 * claim above the receipt threshold and is told a receipt is required, chooses a photo of it with
 * the file chooser, sees its preview, saves, opens the claim's page and downloads it — the bytes
 * are the upload's. Finance, which may not read a draft, and the auditor, who reads the claim but
 * not its receipt, get 404 for the file's URL. A PDF receipt is previewed in a frame, served inline.
 * No axe problem on the form or the claim's page.
 */
import { readFile } from 'node:fs/promises';
import { type Browser, type Locator, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, settled, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
let photo: Buffer;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
  // a receipt photographed: wider than the preview, so the server makes its variants
  photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#f4efe6' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Opens the claim form and fills in a title and an amount above the receipt threshold. */
async function newClaim(page: Page, title: string): Promise<void> {
  await page.goto('/claims/new');
  await settled(page);
  await page.getByRole('textbox', { name: /^Title/ }).fill(title);
  await page.getByRole('textbox', { name: /^Amount/ }).pressSequentially('120');
}

/** Chooses a file for the receipt through the browser's file chooser, opened from the drop zone. */
async function chooseReceipt(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Receipt: choose a file or drop it here' }).click(),
  ]);
  await chooser.setFiles(file);
}

/** Whether an image has loaded its picture. */
const loaded = (image: Locator) => image.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0);

async function createdClaimId(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create claim' }).click();
  await page.waitForURL(/\/claims\/(?!new$)[^/]+$/);
  await settled(page);
  return new URL(page.url()).pathname.split('/')[2] ?? '';
}

describe('files and images', () => {
  test('a receipt is chosen, previewed, saved, shown and downloaded; others get 404', async () => {
    const { page } = await signIn(browser, example, 'employee');
    await newClaim(page, 'Hotel in Lyon');
    await page.getByRole('button', { name: 'Create claim' }).click();
    const field = page.getByRole('group', { name: /^Receipt/ });
    await expect.poll(() => field.textContent()).toContain('A receipt is required');
    expect(await axeProblems(page)).toEqual([]);

    await chooseReceipt(page, { name: 'hotel-receipt.png', mimeType: 'image/png', buffer: photo });
    const preview = field.getByRole('img', { name: 'hotel-receipt.png' });
    await preview.waitFor();
    await expect.poll(() => loaded(preview)).toBe(true);
    expect(await field.getByRole('img').getAttribute('src')).toMatch(/\?w=320$/);
    expect(await field.textContent()).not.toContain('A receipt is required');
    expect(await axeProblems(page)).toEqual([]);

    const id = await createdClaimId(page);
    const claim = await example.api<{ receipt: { id: string; name: string; size: number; type: string } }>(
      'employee',
      'GET',
      `claims/${id}`,
    );
    expect(claim.body.receipt).toMatchObject({
      name: 'hotel-receipt.png',
      type: 'image/png',
      size: photo.length,
    });
    const fileId = claim.body.receipt.id;

    // the claim's page: the picture at reading width, linked to the original, and the download link
    const shown = page.locator('[data-field="receipt"]').getByRole('img', { name: 'hotel-receipt.png' });
    await shown.waitFor();
    expect(await shown.getAttribute('src')).toBe(`/api/files/${fileId}?w=1280`);
    await expect.poll(() => loaded(shown)).toBe(true);
    expect(await axeProblems(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Download hotel-receipt\.png/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('hotel-receipt.png');
    expect((await readFile(await download.path())).equals(photo)).toBe(true);

    // finance may not read a draft, the auditor may not read its receipt: the file is not there for them
    const url = `/api/files/${fileId}`;
    for (const role of ['finance', 'auditor']) {
      const other = await signIn(browser, example, role);
      const answer = await other.page.request.get(url);
      expect(answer.status(), role).toBe(404);
      expect((await answer.json()) as { code: string }).toMatchObject({ code: 'E_NOT_FOUND' });
      await other.context.close();
    }
    const mine = await page.request.get(url);
    expect(mine.status()).toBe(200);
    expect((await mine.body()).equals(photo)).toBe(true);
    await page.context().close();
  }, 180_000);

  test('a PDF receipt is previewed on the claim’s page, served inline', async () => {
    const { page, context } = await signIn(browser, example, 'employee');
    await newClaim(page, 'Train to Lyon');
    await chooseReceipt(page, { name: 'train ticket.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Remove train ticket.pdf' }).waitFor();
    await createdClaimId(page);

    const frame = page.locator('[data-field="receipt"] iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('title')).toBe('train ticket.pdf');
    const served = await page.request.get((await frame.getAttribute('src')) ?? '');
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toMatch(/^application\/pdf/);
    expect(served.headers()['content-disposition'] ?? 'inline').toMatch(/^inline/);
    expect((await served.body()).equals(PDF)).toBe(true);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  }, 120_000);
});
