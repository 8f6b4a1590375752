/**
 * Every field that takes a password, on every page that has one: masked (`type="password"`, ASVS
 * 5.0 6.2.6) and named for password managers (`autocomplete` `current-password` or `new-password`,
 * 6.2.7), so that a manager can fill it and paste is never in the way; and every signed-in page
 * offers signing out from the user menu (7.4.4).
 */
import { type Model } from '@ninefold/model';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { modelOf, openUserMenu, renderApp, world } from './harness';

const claims = (auth: Partial<Model['auth']> = {}): Model => {
  const model = modelOf('expense-claims.md');
  return { ...model, auth: { ...model.auth, ...auth } };
};

/** The password inputs on the page once it shows `ready`, as [autocomplete, type] pairs. */
async function passwordFields(ready: () => Promise<unknown>): Promise<[string | null, string | null][]> {
  await ready();
  const inputs = [...document.querySelectorAll<HTMLInputElement>('input')].filter(
    (input) => /password/i.test(input.getAttribute('autocomplete') ?? '') || input.type === 'password',
  );
  return inputs.map((input) => [input.getAttribute('autocomplete'), input.getAttribute('type')]);
}

describe('password fields', () => {
  it('are masked and named for password managers on the pages before sign-in', async () => {
    const w = await world(claims({ signUp: 'employee' }));
    const visitor = (await w.api('nobody', 'GET', '/api/model')).body as unknown as Model;

    const signIn = renderApp(w, { path: '/sign-in', model: visitor });
    expect(await passwordFields(() => screen.findByRole('button', { name: 'Sign in' }))).toEqual([
      ['current-password', 'password'],
    ]);
    signIn.unmount();

    const signUp = renderApp(w, { path: '/sign-up', model: visitor });
    expect(await passwordFields(() => screen.findByRole('button', { name: 'Create account' }))).toEqual([
      ['new-password', 'password'],
    ]);
    signUp.unmount();
  });

  it('are masked and named for password managers on the account page, which offers signing out', async () => {
    const w = await world(claims());
    await w.user('emma', ['employee']);
    const { user } = renderApp(w, { as: 'emma', path: '/account' });
    const fields = await passwordFields(() => screen.findByRole('button', { name: 'Change password' }));
    expect(fields).toContainEqual(['current-password', 'password']);
    expect(fields).toContainEqual(['new-password', 'password']);
    expect(fields.every(([, type]) => type === 'password')).toBe(true);
    await openUserMenu(user, 'emma');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument());
  });
});
