/**
 * Identity in real Chromium against the real server (decision 0040): an admin creates a user and
 * gets the invitation's link once, the invitee sets a password and is signed in; someone signs up,
 * confirms the address with the link from the development outbox and is signed in; a forgotten
 * password is reset by a link, after which the old one fails; the account page ends another session
 * (ten minutes after signing in, once the user has confirmed it's you) and changes the password; the tokens page makes a token shown once, which works as a bearer until
 * it is revoked; the audit trail shows what happened. Every new page passes axe.
 *
 * The expense claims example (it has an admin who creates people), with `auth:` set for sign-up and
 * tokens as a spec would write it: `auth: { signUp: employee, tokens: [employee] }`.
 */
import { API_PATHS, type Model, TOKEN_PREFIX, type WireMail } from '@ninefold/model';
import { TABLES, sessionCacheOf } from '@ninefold/server';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, newContext, settled, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';
import { fillField } from './harness/ui.js';

const FILE = 'examples/expense-claims.md';

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample(FILE, {
    transformModel: (model: Model): Model => ({
      ...model,
      auth: { ...model.auth, signUp: 'employee', tokens: ['employee'] },
    }),
  });
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** The invitee of the first test, whom the later ones reset, sign in and give tokens. */
const invitee = { name: 'Iris Invited', email: 'iris@example.com', password: '' };
const FIRST_PASSWORD = 'violet harbour lantern 42';
const RESET_PASSWORD = 'copper meadow whistle 17';
const CHANGED_PASSWORD = 'quiet orchard glacier 93';

const api = (path: string) => `${example.model.calls.basePath.replace(/\/+$/, '')}/${path}`;

/** The link of the newest mail to an address in the development outbox (the admin's API). */
async function mailedLink(to: string, subject: RegExp): Promise<string> {
  let found: string | null = null;
  await expect
    .poll(
      async () => {
        const outbox = await example.api<{ data: WireMail[] }>('admin', 'GET', API_PATHS.mailOutbox);
        const mail = outbox.body.data.find((m) => m.to.includes(to) && subject.test(m.subject));
        found = mail === undefined ? null : (/\/link#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0] ?? null);
        return found;
      },
      { timeout: 20_000, interval: 250 },
    )
    .not.toBeNull();
  return found!;
}

/** Signs in on the sign-in page with an address and password (not a demo account). */
async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page
    .getByLabel(/^Password/)
    .first()
    .fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account:/ }).waitFor();
}

/** Whether the browser's session is still one the server knows. */
async function signedIn(page: Page): Promise<boolean> {
  return page.evaluate(async (path) => (await fetch(path)).status === 200, api(API_PATHS.session));
}

/** Whether an address and password sign in (asked of the server, not through the page). */
async function passwordWorks(email: string, password: string): Promise<boolean> {
  const answer = await example.api(null, 'POST', API_PATHS.session, { email, password });
  return answer.status === 200;
}

/** Opens a one-time link as a person does, and checks that the address bar no longer shows it. */
async function openLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await expect.poll(() => new URL(page.url()).hash).toBe('');
}

/** Waits until the page's transitions (a dialog fading in) are over: axe judges what is shown. */
async function still(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
}

/** The user menu's entry, opened from the account button. */
async function fromUserMenu(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
  await page.getByRole('menu').waitFor({ state: 'detached' });
}

describe('identity', () => {
  test('an admin creates a user and gets the link once; the invitee sets a password and is signed in', async () => {
    const admin = await signIn(browser, example, 'admin');
    const page = admin.page;
    await page.goto('/people');
    await settled(page);
    await page.getByRole('main').getByRole('link', { name: /^New/ }).click();
    await settled(page);
    const user = example.model.entities['User']!;
    const noRef = async () => '';
    await fillField(page, page, user.fields['name']!, invitee.name, noRef);
    await fillField(page, page, user.fields['email']!, invitee.email, noRef);
    await fillField(page, page, user.fields['roles']!, ['employee'], noRef);
    await page.getByRole('main').locator('form button[type=submit]').first().click();

    // no SMTP server: the link, shown this once
    const dialog = page.getByRole('dialog', { name: 'Invitation link' });
    await dialog.waitFor();
    await still(page);
    const link = await dialog.getByTestId('secret-once').inputValue();
    expect(link).toMatch(/\/link#token=[A-Za-z0-9_-]{20,}$/);
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // the invitations page lists it, waiting
    await fromUserMenu(page, 'Invitations');
    const row = page.getByTestId('invitation-row').filter({ hasText: invitee.email });
    await expect.poll(() => row.textContent()).toContain('Waiting');
    expect(await axeProblems(page)).toEqual([]);

    // the invitee, in a browser of their own
    const context = await newContext(browser, example);
    const guest = await context.newPage();
    await openLink(guest, new URL(link).pathname + new URL(link).hash);
    await guest.getByRole('heading', { name: 'Welcome, set your password' }).waitFor();
    expect(await guest.getByTestId('link-email').textContent()).toBe(invitee.email);
    expect(await axeProblems(guest)).toEqual([]);
    // the meter flags a well-known password, in words
    await guest.getByLabel(/^New password/).fill('password');
    await expect.poll(() => guest.getByTestId('password-verdict').textContent()).toMatch(/most common/);
    await guest.getByLabel(/^New password/).fill(FIRST_PASSWORD);
    await expect.poll(() => guest.getByTestId('password-verdict').textContent()).toMatch(/^(Good|Strong)\./);
    await guest.getByRole('button', { name: 'Set password and sign in' }).click();
    await guest.getByRole('button', { name: /^Account:/ }).waitFor();
    expect(await signedIn(guest)).toBe(true);
    invitee.password = FIRST_PASSWORD;

    // the link worked once
    await openLink(guest, new URL(link).pathname + new URL(link).hash);
    await guest.locator('[data-error-code="E_LINK_USED"]').waitFor();
    await guest.getByRole('link', { name: 'Ask for a new password link' }).waitFor();
    expect(await axeProblems(guest)).toEqual([]);

    await page.reload();
    await expect.poll(() => row.textContent()).toContain('Accepted');
    await context.close();
    await admin.context.close();
  });

  test('someone signs up, confirms the address from the mail, and is signed in', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/sign-in');
    // the sign-in page's ways to an account and to a new password
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    const email = 'sam.signup@example.com';
    await page.getByLabel(/^Your name/).fill('Sam Signup');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill('amber canyon pebble 55');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);

    const link = await mailedLink(email, /./);
    await openLink(page, link);
    await page.getByRole('heading', { name: 'Confirm your address' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('button', { name: /^Account:/ }).waitFor();
    expect(await signedIn(page)).toBe(true);
    expect(await passwordWorks(email, 'amber canyon pebble 55')).toBe(true);
    await context.close();
  });

  test('a forgotten password is reset by a link; the old one no longer works', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByLabel(/^Email/).fill(invitee.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

    const link = await mailedLink(invitee.email, /password/i);
    await openLink(page, link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByLabel(/^New password/).fill(RESET_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('button', { name: /^Account:/ }).waitFor();
    expect(await passwordWorks(invitee.email, FIRST_PASSWORD)).toBe(false);
    expect(await passwordWorks(invitee.email, RESET_PASSWORD)).toBe(true);
    invitee.password = RESET_PASSWORD;
    await context.close();
  });

  test('the account page ends another session and changes the password', async () => {
    const contexts: BrowserContext[] = [];
    const open = async () => {
      const context = await newContext(browser, example);
      contexts.push(context);
      const page = await context.newPage();
      await signInAs(page, invitee.email, invitee.password);
      return page;
    };
    const elsewhere = await open();
    const here = await open();
    await fromUserMenu(here, 'Your account');
    await here.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await settled(here);
    const rows = here.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1);
    expect(await axeProblems(here)).toEqual([]);

    const before = await rows.count();
    // ten minutes on, as the server's clock would have it: the sessions' last proof of a factor is
    // set back (and the session cache forgets them), so ending another asks to confirm it's you
    const database = example.server.database;
    const longAgo = new Date(Date.now() - 11 * 60_000).toISOString();
    await database.db.updateTable(TABLES.sessions).set({ authenticated_at: longAgo }).execute();
    sessionCacheOf(database).forgetAll();
    await rows.filter({ hasNotText: 'This device' }).first().getByRole('button', { name: /^End/ }).click();
    const dialog = here.getByRole('dialog', { name: 'Confirm it’s you' });
    await dialog.getByLabel(/^Password/).fill(invitee.password);
    expect(await axeProblems(here)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count()).toBe(before - 1);
    expect(await signedIn(here)).toBe(true);

    await here.getByLabel(/^Current password/).fill(invitee.password);
    await here.getByLabel(/^New password/).fill(CHANGED_PASSWORD);
    await here.getByRole('button', { name: 'Change password' }).click();
    await here.getByText('Your password is changed. Your other sessions were signed out.').waitFor();
    // every other session is gone; this one goes on
    await expect.poll(() => rows.count()).toBe(1);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    expect(await passwordWorks(invitee.email, CHANGED_PASSWORD)).toBe(true);
    invitee.password = CHANGED_PASSWORD;

    // a wrong current password is said beside its field
    await here.getByLabel(/^Current password/).fill('not my password at all');
    await here.getByLabel(/^New password/).fill('another fine passphrase 8');
    await here.getByRole('button', { name: 'Change password' }).click();
    await here.getByText('The current password is not correct.').waitFor();
    for (const context of contexts) await context.close();
  });

  test('the tokens page makes a token shown once that works as a bearer until it is revoked', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await signInAs(page, invitee.email, invitee.password);
    await fromUserMenu(page, 'API tokens');
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    await settled(page);
    expect(await axeProblems(page)).toEqual([]);

    await page.getByLabel(/^Name/).fill('Nightly export');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByTestId('secret-once').inputValue();
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    const row = page.getByTestId('token-row').filter({ hasText: 'Nightly export' });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(token);
    expect(await axeProblems(page)).toEqual([]);

    // a script, with the token alone: no cookie, no CSRF header
    const asScript = async () =>
      (
        await fetch(`${example.url}${api(API_PATHS.session)}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;
    expect(await asScript()).toBe(200);

    await row.getByRole('button', { name: /^Revoke/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this token?' });
    await confirm.waitFor();
    await still(page);
    expect(await axeProblems(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await asScript()).toBe(401);
    // shown once: after a reload, the page has it no more
    await page.reload();
    await settled(page);
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    await context.close();
  });

  test('the audit trail shows who did what, filtered by kind', async () => {
    const admin = await signIn(browser, example, 'admin');
    const page = admin.page;
    await fromUserMenu(page, 'Audit trail');
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    await settled(page);
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Invitation accepted' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?kind=invitation-accepted');
    const rows = page.getByRole('table', { name: 'Audit trail' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(invitee.email);
    await admin.context.close();
  });
});
