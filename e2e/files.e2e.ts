/**
 * Files in real Chromium (issue 18, decision 0055), on the expense claims: an employee creates a
 * claim above the receipt threshold and is told a receipt is required, chooses a photo of it with
 * the file chooser, sees its preview, saves, opens the claim's page and downloads it — the bytes
 * are the upload's. Finance, which may not read a draft, and the auditor, who reads the claim but
 * not its receipt, get 404 for the file's URL. A PDF receipt is previewed in a frame, served inline.
 * A large receipt sent over a slow connection (throttled through the DevTools protocol) shows its
 * progress as it goes and is attached once sent; one cancelled halfway leaves the field empty and
 * the saved claim without a receipt. No axe problem on the form or the claim's page.
 */
import { readFile } from 'node:fs/promises';
import { type Browser, type CDPSession, type Locator, type Page } from 'playwright-core';
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

/**
 * A PDF of `size` bytes, as the server sniffs it: the header, then a comment as long as it takes
 * (a PDF reader skips it), then the rest.
 */
function largePdf(size: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n%');
  const tail = Buffer.from('\n' + PDF.toString('latin1').slice('%PDF-1.4\n'.length), 'latin1');
  return Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 'x'), tail]);
}

/**
 * Opens the claim form and fills in a title and an amount (by default above the receipt
 * threshold).
 */
async function newClaim(page: Page, title: string, amount = '120'): Promise<void> {
  await page.goto('/claims/new');
  await settled(page);
  await page.getByRole('textbox', { name: /^Title/ }).fill(title);
  await page.getByRole('textbox', { name: /^Amount/ }).pressSequentially(amount);
}

/**
 * Throttles the page's uploads to `bytesPerSecond` through the DevTools protocol, or lifts the
 * throttling (null). Downloads are left at full speed.
 */
async function throttleUploads(cdp: CDPSession, bytesPerSecond: number | null): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  });
}

/** The value a progress bar shows, or null once it is gone. */
async function progressOf(bar: Locator): Promise<number | null> {
  const values = await bar.evaluateAll((bars) => bars.map((b) => b.getAttribute('aria-valuenow')));
  const [value] = values;
  return values.length === 1 && typeof value === 'string' ? Number(value) : null;
}

/** Whether a value is strictly between 0 and 100: an upload under way. */
const halfway = (value: number | null) => value !== null && value > 0 && value < 100;

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

  test('a large receipt shows its progress and is attached; a cancelled one leaves nothing', async () => {
    const { page, context } = await signIn(browser, example, 'employee');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // 3 MB at 128 kB/s: 24 s if the throttling stayed, far longer than it takes to see it under way
    const big = largePdf(3 * 1024 * 1024);
    const slow = 128 * 1024;
    const field = page.getByRole('group', { name: /^Receipt/ });

    await newClaim(page, 'Conference in Porto');
    await throttleUploads(cdp, slow);
    await chooseReceipt(page, { name: 'conference.pdf', mimeType: 'application/pdf', buffer: big });
    const bar = field.getByRole('progressbar', { name: 'Uploading conference.pdf' });
    await expect.poll(() => progressOf(bar), { timeout: 15_000 }).toSatisfy(halfway);
    await throttleUploads(cdp, null);
    await field.getByRole('button', { name: 'Remove conference.pdf' }).waitFor();
    expect(await bar.count()).toBe(0);
    await expect.poll(() => field.textContent()).toContain('conference.pdf uploaded.');
    const id = await createdClaimId(page);
    const claim = await example.api<{ receipt: { name: string; size: number; type: string } | null }>(
      'employee',
      'GET',
      `claims/${id}`,
    );
    expect(claim.body.receipt).toMatchObject({
      name: 'conference.pdf',
      type: 'application/pdf',
      size: big.length,
    });

    // a second upload, cancelled while it is sent: nothing attached, no refusal, and a claim saved
    // without a receipt (below the threshold) has none
    await newClaim(page, 'Taxi in Porto', '20');
    await throttleUploads(cdp, slow);
    await chooseReceipt(page, { name: 'taxi.pdf', mimeType: 'application/pdf', buffer: big });
    const cancelled = field.getByRole('progressbar', { name: 'Uploading taxi.pdf' });
    await expect.poll(() => progressOf(cancelled), { timeout: 15_000 }).toSatisfy(halfway);
    await field.getByRole('button', { name: 'Cancel the upload of taxi.pdf' }).click();
    await expect.poll(() => field.textContent()).toContain('The upload of taxi.pdf was cancelled.');
    await throttleUploads(cdp, null);
    const zone = field.getByRole('button', { name: 'Receipt: choose a file or drop it here' });
    await zone.waitFor();
    expect(await zone.getAttribute('data-invalid')).toBeNull();
    expect(await cancelled.count()).toBe(0);
    expect(await field.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await field.textContent()).not.toContain('taxi.pdf uploaded.');
    const saved = await createdClaimId(page);
    const taxi = await example.api<{ receipt: unknown }>('employee', 'GET', `claims/${saved}`);
    expect(taxi.body.receipt ?? null).toBeNull();
    await context.close();
  }, 60_000);
});
