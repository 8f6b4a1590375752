/**
 * Single sign-on in real Chromium (decision 0039): the help desk with a real OpenID provider
 * (`oidc-provider`, started here). "Sign in with Acme" on the sign-in page goes to the provider, its
 * login and consent forms are filled in, and the browser comes back signed in, with the role the
 * provider's groups map to. A person the help desk cannot take comes back to the sign-in page with
 * the catalogue's message. Both pages pass axe.
 */
import { API_PATHS, DEFAULT_AUTH, type Model } from '@ninefold/model';
import { type TestOidcProvider, startOidcProvider } from '@ninefold/testkit';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, newContext, settled } from './harness/browser.js';
import { type Example, compileExample, startExample } from './harness/server.js';

const FILE = 'examples/helpdesk.md';

let browser: Browser;
let provider: TestOidcProvider;
let example: Example;
beforeAll(async () => {
  const basePath = (await compileExample(FILE)).calls.basePath.replace(/\/+$/, '');
  provider = await startOidcProvider({
    accounts: [
      { sub: 'ava-1', email: 'ava@example.com', name: 'Ava Agent', groups: ['support-staff'] },
      { sub: 'outsider-1', email: 'outsider@example.com', name: 'Out Sider', groups: ['marketing'] },
    ],
    redirectUris: [`http://127.0.0.1${basePath}/${API_PATHS.oidcCallback}`],
  });
  example = await startExample(FILE, {
    env: { ...process.env, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_SECRET: provider.clientSecret },
    // the spec's `auth:` as it would be written, until the notation reads it
    transformModel: (model: Model): Model => ({
      ...model,
      auth: {
        ...DEFAULT_AUTH,
        oidc: {
          issuer: '${OIDC_ISSUER}',
          clientId: provider.clientId,
          clientSecret: '${OIDC_CLIENT_SECRET}',
          label: 'Acme',
          roles: { claim: 'groups', map: { 'support-staff': 'agent' } },
        },
      },
    }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await example?.close();
  await provider?.close();
  await browser?.close();
});

/** From the sign-in page through the provider's login and consent forms, as a person would. */
async function signInWithAcme(page: Page, sub: string): Promise<void> {
  await page.getByRole('link', { name: 'Sign in with Acme' }).click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.locator('input[name="login"]').fill(sub);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('single sign-on', () => {
  test('“Sign in with Acme” comes back signed in, with the role the provider’s groups map to', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/tickets');
    await page.waitForURL('**/sign-in?next=%2Ftickets');
    await page.getByRole('link', { name: 'Sign in with Acme' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);

    await signInWithAcme(page, 'ava-1');
    await page.waitForURL(`${example.url}/tickets`);
    await settled(page);
    const session = await page.evaluate(
      async (path) => {
        const response = await fetch(path);
        return (await response.json()) as { user: { email: string; name: string; roles: string[] } };
      },
      `${example.model.calls.basePath.replace(/\/+$/, '')}/${API_PATHS.session}`,
    );
    expect(session.user).toMatchObject({ email: 'ava@example.com', name: 'Ava Agent', roles: ['agent'] });
    await page.getByRole('button', { name: /^Account:/ }).waitFor();
    await context.close();
  });

  test('a person the help desk cannot take comes back to the sign-in page with why', async () => {
    const context = await newContext(browser, example);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await signInWithAcme(page, 'outsider-1');
    await page.waitForURL('**/sign-in?error=E_SSO_NO_ACCOUNT');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.getAttribute('data-error-code')).toBe('E_SSO_NO_ACCOUNT');
    expect(await alert.textContent()).toContain('No account here uses Acme');
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });
});
