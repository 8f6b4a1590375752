/**
 * "Sign in with …" on the sign-in page (decision 0039): offered when the spec has a provider, a
 * full-page navigation to the server's start of single sign-on that comes back where the person was
 * going; and a sign-on that did not work comes back as its catalogue message.
 */
import { screen } from '@testing-library/react';
import { DEFAULT_AUTH, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { modelOf, renderApp, world } from './harness';

/** The expense claims with a provider; the server's settings are literal here (no environment). */
function withProvider(): Model {
  const model = modelOf('expense-claims.md');
  return {
    ...model,
    auth: {
      ...DEFAULT_AUTH,
      oidc: {
        issuer: 'http://127.0.0.1:9',
        clientId: 'ninefold',
        clientSecret: 'not-a-secret',
        label: 'Acme',
        roles: null,
      },
    },
  };
}

async function signedOutModel(w: Awaited<ReturnType<typeof world>>): Promise<Model> {
  return (await w.api('nobody', 'GET', '/api/model')).body as unknown as Model;
}

describe('single sign-on on the sign-in page', () => {
  it('offers “Sign in with Acme”, going to the server and back to where the person was going', async () => {
    const w = await world(withProvider());
    const model = await signedOutModel(w);
    // the visitor's model names the provider, and nothing of how to reach it
    expect(model.auth.oidc).toMatchObject({ label: 'Acme', issuer: '', clientSecret: '' });
    renderApp(w, { path: '/sign-in?next=%2Fmy-claims', model });
    const link = await screen.findByRole('link', { name: 'Sign in with Acme' });
    expect(link.getAttribute('href')).toBe('/api/session/oidc?returnTo=%2Fmy-claims');
  });

  it('shows the catalogue message of the code single sign-on came back with', async () => {
    const w = await world(withProvider());
    const model = await signedOutModel(w);
    renderApp(w, { path: '/sign-in?error=E_SSO_NO_ACCOUNT', model });
    const alert = await screen.findByRole('alert');
    expect(alert.getAttribute('data-error-code')).toBe('E_SSO_NO_ACCOUNT');
    expect(alert.textContent).toBe(
      'No account here uses Acme, and single sign-on cannot open one. Ask an admin to invite you.',
    );
  });

  it('shows no text from the address: an unknown or foreign code is ignored', async () => {
    const w = await world(withProvider());
    const model = await signedOutModel(w);
    renderApp(w, { path: '/sign-in?error=E_INVALID_CREDENTIALS%20<b>hi</b>', model });
    await screen.findByRole('link', { name: 'Sign in with Acme' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers no single sign-on when the spec has no provider', async () => {
    const w = await world('expense-claims.md');
    const model = await signedOutModel(w);
    renderApp(w, { path: '/sign-in', model });
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('link', { name: /^Sign in with/ })).toBeNull();
  });
});
