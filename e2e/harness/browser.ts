/**
 * Debian's Chromium driven by playwright-core: no browser download, one browser per run, a context
 * (cookies, storage) per signed-in role.
 */
import { RATE_LIMIT_HEADERS, SESSION_COOKIE } from '@ninefold/model';
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { expect } from 'vitest';
import { type Example, account } from './server';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Launches headless Chromium. Playwright gives every launch a fresh temporary user-data dir and
 * deletes it on close.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface RoleSession {
  readonly role: string;
  readonly context: BrowserContext;
  readonly page: Page;
}

/** A new context at a width, optionally in a colour scheme. */
export async function newContext(
  browser: Browser,
  example: Example,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: example.url,
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.colorScheme ?? 'light',
    locale: example.model.product.locale,
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/**
 * Signs a role in through the sign-in page and keeps its session cookie for the API arrangement,
 * so each role signs in once per server (sign-in is rate limited).
 */
export async function signIn(browser: Browser, example: Example, role: string): Promise<RoleSession> {
  const context = await newContext(browser, example);
  const page = await context.newPage();
  await signInOn(page, example, role);
  return { role, context, page };
}

export async function signInOn(page: Page, example: Example, role: string): Promise<void> {
  const { email, password } = account(example, role);
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page
    .getByLabel(/^Password/)
    .first()
    .fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // the signed-in shell: on a phone its navigation is folded behind the burger, there but hidden
  await page.getByRole('navigation', { name: 'Main', includeHidden: true }).waitFor({ state: 'attached' });
  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  if (cookie === undefined) throw new Error(`${role}: no session cookie after signing in`);
  example.cookies.set(role, `${cookie.name}=${cookie.value}`);
}

/**
 * Waits for a fresh minute of the rate limit when the page's user has fewer than `needed` requests
 * left in this one. A role of a small budget (the help desk's customer: 120 a minute) that has just
 * opened every screen would be refused (429) for the rest of the minute: what the spec means, but
 * not what a test of something else is about.
 *
 * @example await withRequestBudget(page, example, 30); await page.goto(path);
 */
export async function withRequestBudget(page: Page, example: Example, needed: number): Promise<void> {
  const left = await page.evaluate(
    async ({ url, headers }) => {
      const answer = await fetch(url, { credentials: 'same-origin' });
      return {
        remaining: Number(answer.headers.get(headers.remaining)),
        reset: Number(answer.headers.get(headers.reset)),
      };
    },
    { url: `${example.model.calls.basePath}/session`, headers: RATE_LIMIT_HEADERS },
  );
  if (Number.isFinite(left.remaining) && left.remaining < needed)
    await page.waitForTimeout((left.reset + 1) * 1000);
}

/** Waits until the page shows its main heading and no loader. */
export async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.getByLabel('Loading').count(), { timeout: 10_000 }).toBe(0);
}

/**
 * Waits until the service worker controls the page and has kept the shell (the page with the model
 * inside), so that the app opens again without the network.
 */
export async function shellKeptOffline(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
    .toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(
          async () => (await (await caches.open('ninefold-shell')).match('/__ninefold-shell')) !== undefined,
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
}
