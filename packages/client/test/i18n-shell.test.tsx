import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import Toaster from '../src/feedback/Toaster';
import { createToastStore } from '../src/feedback/toasts';
import { createI18n } from '../src/i18n/i18n';
import { writeSummary } from '../src/offline/PendingWrites';
import { type QueuedWrite } from '../src/offline/queue';
import { I18nProvider } from '../src/i18n/I18nProvider';
import { renderApp, world } from './harness';

afterEach(() => {
  document.documentElement.removeAttribute('dir');
  document.documentElement.removeAttribute('lang');
});

describe('the shell in the reader’s language', () => {
  it('speaks French: the navigation, the account menu, a page that does not exist', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/nowhere', locale: 'fr-FR' });

    expect(await screen.findByRole('heading', { name: 'Page introuvable', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aller à la page d’accueil' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page introuvable · Notes de frais'));
    const nav = within(screen.getByRole('navigation', { name: 'Principale' }));
    expect(nav.getByRole('link', { name: 'Aide' })).toBeInTheDocument();
    expect(nav.getByRole('link', { name: 'À propos de cette application' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aller au contenu' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr-FR');
    expect(document.documentElement.dir).toBe('ltr');

    // the account menu, once its code is here
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Compte : ann' })).toHaveAttribute('aria-haspopup', 'menu'),
    );
    await user.click(screen.getByRole('button', { name: 'Compte : ann' }));
    expect(await screen.findByRole('menuitem', { name: 'Votre compte' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Se déconnecter' })).toBeInTheDocument();
    expect(screen.queryByText('Sign out')).toBeNull();
  });

  it('mirrors in Arabic: the page is right to left, its language Arabic', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    renderApp(w, { as: 'ann', path: '/nowhere', locale: 'ar' });

    expect(await screen.findByRole('heading', { name: 'غير موجود', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(screen.getByRole('navigation', { name: 'الرئيسية' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'المساعدة' })).toBeInTheDocument();
  });

  it('shows a toast in German: its name, its link, its close button, a failed undo', async () => {
    const i18n = createI18n({ locales: ['de-DE'], wanted: ['de-DE'] });
    await i18n.firstReady();
    const store = createToastStore();
    store.show({
      message: 'Antrag erstellt',
      link: { to: '/claims/1', label: 'Taxi' },
      undo: { label: 'Rückgängig', run: () => Promise.reject('no') },
    });
    const view = () => (
      <I18nProvider i18n={i18n}>
        <MantineProvider>
          <MemoryRouter>
            <Toaster store={store} toasts={store.current()} />
          </MemoryRouter>
        </MantineProvider>
      </I18nProvider>
    );
    const { rerender } = render(view());

    const toast = screen.getByRole('group', { name: 'Meldung' });
    expect(within(toast).getByRole('link', { name: '„Taxi“ öffnen' })).toBeInTheDocument();
    expect(within(toast).getByRole('button', { name: 'Schließen' })).toBeInTheDocument();

    // an undo that fails without saying why says so in German
    await userEvent.click(within(toast).getByRole('button', { name: 'Rückgängig' }));
    await waitFor(() => expect(store.current()[0]?.tone).toBe('error'));
    rerender(view());
    expect(screen.getByRole('group', { name: 'Meldung' })).toHaveTextContent(
      'Das konnte nicht rückgängig gemacht werden.',
    );
    expect(document.documentElement.lang).toBe('de-DE');
  });

  it('names a change waiting on this device in the reader’s language, the record’s title as it is', async () => {
    const w = await world('expense-claims.md');
    const write: QueuedWrite = {
      key: 'k1',
      kind: 'update',
      entity: 'Claim',
      recordId: 'c1',
      method: 'PATCH',
      path: 'claims/c1',
      body: { title: 'Taxi to the airport' },
      title: 'Taxi',
      at: '2026-11-26T10:00:00Z',
    };
    const label = w.model.entities['Claim']!.label;
    const field = w.model.entities['Claim']!.fields['title']!.label;
    const french = createI18n({ locales: ['fr-FR'], wanted: ['fr-FR'] });
    await french.ready();
    expect(writeSummary(w.model, write, french)).toBe(`Modifications : ${label} “Taxi” (${field})`);
    const english = createI18n({ locales: ['en'], wanted: ['en'] });
    await english.ready();
    expect(writeSummary(w.model, { ...write, kind: 'create', body: {} }, english)).toBe(
      `New ${label.toLowerCase()} “Taxi”`,
    );
  });
});
