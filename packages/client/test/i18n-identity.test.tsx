import { type Model } from '@ninefold/model';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALE_STORAGE_KEY } from '../src/i18n/i18n';
import { modelOf, openUserMenu, renderApp, world } from './harness';

/**
 * The reader's language (decision 0067): picked on the sign-in page (this browser remembers it) or
 * in the user menu (the account keeps it, on the server), and followed wherever the user signs in.
 */
afterEach(() => {
  localStorage.clear();
  document.documentElement.lang = '';
  document.documentElement.dir = '';
});

/** Expense claims, offered in English, French and Arabic. */
function claims(): Model {
  const model = modelOf('expense-claims.md');
  return { ...model, product: { ...model.product, locales: ['en-GB', 'fr-FR', 'ar'] } };
}

describe('the language menu', () => {
  it('switches the sign-in page to French, and this browser remembers it', async () => {
    const w = await world(claims());
    const { user } = renderApp(w, { path: '/sign-in' });
    const select = await screen.findByRole('combobox', { name: 'Language' });
    await user.selectOptions(select, 'fr-FR');
    await screen.findByRole('combobox', { name: 'Langue' });
    expect(document.documentElement.lang).toBe('fr-FR');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('fr-FR');
  });

  it('saves a signed-in user’s choice on their account', async () => {
    const w = await world(claims());
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await openUserMenu(user, 'ann');
    await user.click(await screen.findByRole('menuitem', { name: /^Français/ }));
    await waitFor(() => expect(document.documentElement.lang).toBe('fr-FR'));
    const session = await w.api('ann', 'GET', '/api/session');
    expect((session.body['user'] as { locale: string }).locale).toBe('fr-FR');
  });

  it('follows the language saved on the account: Arabic, right to left', async () => {
    const w = await world(claims());
    await w.user('ann', ['employee']);
    const saved = await w.api('ann', 'PUT', '/api/account/locale', { locale: 'ar' });
    expect(saved.status).toBe(200);
    renderApp(w, { as: 'ann', path: '/my-claims' });
    await waitFor(() =>
      expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']),
    );
  });
});
