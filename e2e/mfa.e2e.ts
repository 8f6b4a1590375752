/**
 * Two-step sign-in in real Chromium against the real server (decision 0041): a user turns it on
 * from their account (password, the key the page shows, a code computed here by `otpauth` as an
 * authenticator app would), keeps the recovery codes, signs out, and signs in again with a code,
 * then with a recovery code. Where the spec requires it of a role (`auth.mfa`), a user of that role
 * enrols at sign-in — the QR code, the key, a first code — and sees the recovery codes once before
 * entering the app. axe checks each new screen.
 */
import { type Model } from '@ninefold/model';
import { Secret, TOTP } from 'otpauth';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, newContext, settled, signIn } from './harness/browser.js';
import { type Example, account, startExample } from './harness/server.js';

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

/**
 * The app's code half a minute from now: inside the server's window (a step either side) and past
 * any step already used, so that a code is never refused as a replay of the one just typed.
 */
function nextCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });
}

/** A code the server refuses now: none of the three steps it accepts. */
function wrongCode(secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const near = [-30_000, 0, 30_000, 60_000].map((d) => totp.generate({ timestamp: Date.now() + d }));
  return ['000000', '111111', '222222', '333333', '444444'].find((c) => !near.includes(c))!;
}

async function signOut(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Account: ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page
    .getByLabel(/^Password/)
    .first()
    .fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
}

describe('two-step sign-in', () => {
  test('is turned on with a code from the app, then asked for at sign-in', async () => {
    const role = example.accounts[0]!.role;
    const { email, password } = account(example, role);
    const { page } = await signIn(browser, example, role);
    const me = (await example.api(role, 'GET', 'session')).body.user as { name: string };

    await page.goto('/account/two-step');
    await settled(page);
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByText('Off.').waitFor();
    expect(await axeProblems(page)).toEqual([]);

    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByLabel(/^Current password/).fill(password);
    await section.getByRole('button', { name: 'Continue' }).click();
    const qr = section.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    const secret = ((await section.getByTestId('two-step-key').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const codeInput = section.getByLabel(/^Authentication code/);
    expect(await codeInput.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await axeProblems(page)).toEqual([]);

    // a wrong code first: refused, and said so
    await codeInput.fill(wrongCode(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('alert').waitFor();
    await codeInput.fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await section.getByRole('button', { name: 'Turn on' }).click();
    const list = section.getByTestId('recovery-codes');
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(await axeProblems(page)).toEqual([]);
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await section.getByText('On.').waitFor();
    await section.getByText('10 recovery codes are left.').waitFor();

    // signed out, the password alone is not enough
    await signOut(page, me.name);
    await passwordStep(page, email, password);
    const code = page.getByLabel(/^Authentication code/);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await axeProblems(page)).toEqual([]);
    expect((await page.context().cookies()).some((c) => c.name === 'ninefold_session')).toBe(false);
    await code.fill(wrongCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('[data-error-code="E_MFA_CODE"]').waitFor();
    await code.fill(nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main', includeHidden: true }).waitFor({ state: 'attached' });

    // and once more with a recovery code instead
    await signOut(page, me.name);
    await passwordStep(page, email, password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel(/^Recovery code/).fill(codes[0]!);
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main', includeHidden: true }).waitFor({ state: 'attached' });
    await page.goto('/account/two-step');
    await settled(page);
    await page.getByText('9 recovery codes are left.').waitFor();
  });
});

describe('two-step sign-in required by the spec', () => {
  const ROLE = 'admin';
  let required: Example;
  beforeAll(async () => {
    required = await startExample('examples/expense-claims.md', {
      transformModel: (model: Model): Model => ({
        ...model,
        auth: { ...model.auth, mfa: { required: [ROLE] } },
      }),
    });
  });
  afterAll(async () => {
    await required?.close();
  });

  test('a user of the role enrols at sign-in and keeps the recovery codes before entering', async () => {
    const { email, password } = account(required, ROLE);
    const context = await newContext(browser, required);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page
      .getByLabel(/^Password/)
      .first()
      .fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    const secret = ((await page.getByTestId('two-step-key').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await axeProblems(page)).toEqual([]);
    expect((await context.cookies()).some((c) => c.name === 'ninefold_session')).toBe(false);

    const code = page.getByLabel(/^Authentication code/);
    await code.fill(wrongCode(secret));
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();
    await page.locator('[data-error-code="E_MFA_CODE"]').waitFor();
    await code.fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(10);
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Main', includeHidden: true }).waitFor({ state: 'attached' });

    // required: the account's section offers no way to turn it off
    await page.goto('/account/two-step');
    await settled(page);
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByTestId('two-step-required').waitFor();
    expect(await section.getByRole('button', { name: 'Turn off' }).count()).toBe(0);
    await context.close();
  });
});
