import { localizeModel } from '@ninefold/model';
/**
 * Records, forms and fields in the reader's language (issue 15): a claim's page in German speaks
 * German around the spec's words (its actions, its history, who did what when); the claim form in
 * French takes `12,50` and `25/12/2026` as a French reader writes them and sends the API the
 * canonical `12.50` and `2026-12-25`; in Japanese a date is written year first.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  dateFromText,
  dateTimeFromText,
  dateToText,
  timeFromText,
  timeToText,
} from '../src/fields/locale-dates';
import { type World, modelOf, offering, renderApp, world } from './harness';

// screens and the locale's catalogue load on demand: allow for a busy machine
configure({ asyncUtilTimeout: 10_000 });

type Json = Record<string, unknown>;

let w: World;

beforeAll(async () => {
  w = await world('expense-claims.md');
  // the clock past Christmas 2026, so that a claim may be dated then ("spentOn <= today"); the
  // user signs in after, so that her session is not years old
  w.server.clock.advance(310 * 24 * 3_600_000);
  await w.user('ann', ['employee']);
}, 60_000);

/** The POST bodies the app sends to a path, as the server receives them. */
function recording(path: string) {
  const sent: Json[] = [];
  const network =
    (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (
        init?.method === 'POST' &&
        new URL(url, 'http://app').pathname === path &&
        typeof init.body === 'string'
      )
        sent.push(JSON.parse(init.body) as Json);
      return fetch(input, init);
    };
  return { sent, network };
}

/** A claim field's label as a reader of a locale meets it (the spec's translation, if it has one). */
function labelIn(locale: string, field: string): RegExp {
  const label = localizeModel(modelOf('expense-claims.md'), locale).entities['Claim']!.fields[field]!.label;
  return new RegExp(`^${label}`);
}

describe('a record’s page in German', () => {
  it('shows its actions, its history and who did what in German around the spec’s words', async () => {
    const created = await w.api('ann', 'POST', '/api/claims', {
      title: 'Zugfahrt nach Bern',
      amount: '18.50',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { user } = renderApp(w, {
      as: 'ann',
      path: `/claims/${String(created.body['id'])}`,
      locale: 'de-DE',
    });
    await screen.findByRole('heading', { name: 'Zugfahrt nach Bern', level: 1 });

    const actions = within(await screen.findByRole('group', { name: 'Aktionen' }));
    expect(actions.getByRole('link', { name: 'Bearbeiten' })).toBeInTheDocument();
    expect(actions.getByRole('button', { name: 'Löschen' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Verlauf', level: 2 })).toBeInTheDocument();
    const history = within(await screen.findByRole('list', { name: 'Verlauf' }));
    expect(await history.findByText('Erstellt')).toBeInTheDocument();
    await waitFor(() => expect(history.getByText(/^von /)).toHaveTextContent(/^von \S.* · \S/));
    expect(screen.getByTestId('system-info')).toHaveTextContent(/^Erstellt am \S.+ von \S/);
    // nothing of the English chrome is left
    expect(screen.queryByText('History')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();

    // a transition the spec asks about: its question is the spec's, the way out is German
    await actions.findByRole('button', { name: 'Submit' });
    await user.click(actions.getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByRole('button', { name: 'Nicht jetzt' })).toBeInTheDocument();
    // the delete dialog speaks German too
    await user.click(dialog.getByRole('button', { name: 'Nicht jetzt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(actions.getByRole('button', { name: 'Löschen' }));
    const remove = within(await screen.findByRole('dialog'));
    expect(
      remove.getByText('„Zugfahrt nach Bern“ löschen? Sie können es einige Sekunden lang rückgängig machen.'),
    ).toBeInTheDocument();
    expect(remove.getByRole('button', { name: 'Abbrechen' })).toBeInTheDocument();
  }, 60_000);
});

describe('a form in French', () => {
  it('takes 12,50 and 25/12/2026 as a French reader writes them, and sends 12.5 and 2026-12-25', async () => {
    const { sent, network } = recording('/api/claims');
    const { user, history } = renderApp(w, { as: 'ann', path: '/claims/new', locale: 'fr-FR', network });
    const create = await screen.findByRole('button', { name: /^Créer/ });
    const spentOn = screen.getByRole('textbox', { name: labelIn('fr-FR', 'spentOn') });
    // today, as French writes it, and the order said in French letters
    await waitFor(() =>
      expect(spentOn).toHaveValue(dateToText(w.server.clock.now().toISOString().slice(0, 10), 'fr-FR')),
    );
    expect((spentOn as HTMLInputElement).value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(spentOn).toHaveAttribute('placeholder', 'jj/mm/aaaa');

    await user.type(screen.getByRole('textbox', { name: labelIn('fr-FR', 'title') }), 'Déjeuner à Lyon');
    const amount = screen.getByRole('textbox', { name: labelIn('fr-FR', 'amount') });
    await user.type(amount, '12,5');
    await user.tab();
    expect(amount).toHaveValue('12,50'); // shown at the field's scale, with the French decimal comma
    await user.clear(spentOn);
    await user.type(spentOn, '25/12/2026');
    await user.tab();
    expect(spentOn).toHaveValue('25/12/2026');
    await user.click(create);

    await waitFor(() => expect(history.location.pathname).toMatch(/^\/claims\/(?!new$)[^/]+$/));
    expect(sent).toHaveLength(1);
    expect(Number(sent[0]?.['amount'])).toBe(12.5);
    expect(sent[0]).toMatchObject({ amount: '12.50', spentOn: '2026-12-25' });
    // the toast says so in French, around the record's own name
    expect(await screen.findByText(/« Déjeuner à Lyon » créé/)).toBeInTheDocument();
  }, 60_000);

  it('refuses a date that is not one in the catalogue’s words, not as a silent change', async () => {
    const { user } = renderApp(w, { as: 'ann', path: '/claims/new', locale: 'fr-FR' });
    await screen.findByRole('button', { name: /^Créer/ });
    const spentOn = screen.getByRole('textbox', { name: labelIn('fr-FR', 'spentOn') });
    await user.clear(spentOn);
    await user.type(spentOn, '31/02/2026');
    await user.tab();
    expect(spentOn).toHaveValue('31/02/2026');
    expect(spentOn).toHaveAttribute('aria-invalid', 'true');
  }, 60_000);
});

describe('dates in Japanese', () => {
  it('are written year first, and read that way', async () => {
    renderApp(w, { as: 'ann', path: '/claims/new', locale: 'ja' });
    await screen.findByRole('button', { name: /作成$/ });
    const spentOn = screen.getByRole('textbox', { name: /^Spent on/ });
    await waitFor(() => expect((spentOn as HTMLInputElement).value).toMatch(/^\d{4}\/\d{2}\/\d{2}$/));
    expect(spentOn).toHaveAttribute('placeholder', 'yyyy/mm/dd');
  }, 60_000);
});

describe('the locale’s notation, read and written', () => {
  it('orders and marks dates as each locale does, and reads ISO everywhere', () => {
    expect(dateToText('2026-12-25', 'en-GB')).toBe('25/12/2026');
    expect(dateToText('2026-12-25', 'fr-FR')).toBe('25/12/2026');
    expect(dateToText('2026-12-25', 'de-DE')).toBe('25.12.2026');
    expect(dateToText('2026-12-25', 'ja')).toBe('2026/12/25');
    expect(dateToText('2026-12-25', 'en-US')).toBe('12/25/2026');
    expect(dateFromText('25.12.2026', 'de-DE')).toBe('2026-12-25');
    expect(dateFromText('1.2.2026', 'de-DE')).toBe('2026-02-01');
    expect(dateFromText('2026/12/25', 'ja')).toBe('2026-12-25');
    expect(dateFromText('12/25/2026', 'en-US')).toBe('2026-12-25');
    expect(dateFromText('٢٥/١٢/٢٠٢٦', 'ar')).toBe('2026-12-25');
    expect(dateFromText('2026-12-25', 'fr-FR')).toBe('2026-12-25');
    // not a date: kept as typed, for the check to say so
    expect(dateFromText('12/25/2026', 'fr-FR')).toBe('12/25/2026');
    expect(dateFromText('', 'fr-FR')).toBeNull();
  });

  it('reads times on either clock and shows the locale’s', () => {
    expect(timeToText('21:30:00', 'fr-FR')).toBe('21:30');
    expect(timeToText('21:30:00', 'en-US')).toMatch(/^9:30\s?PM$/);
    expect(timeFromText('9:30 PM', 'en-US')).toBe('21:30:00');
    expect(timeFromText('21h30', 'fr-FR')).toBe('21:30:00');
    expect(timeFromText('09.30', 'de-DE')).toBe('09:30:00');
    expect(timeFromText('25:00', 'de-DE')).toBe('25:00');
    const instant = dateTimeFromText('25/12/2026 09:30', 'fr-FR');
    expect(instant).toBe(new Date(2026, 11, 25, 9, 30).toISOString());
  });
});

describe('a record’s page right to left', () => {
  it('shows what people typed in its own direction, the page around it in Arabic', async () => {
    const arabic = await world(offering(modelOf('expense-claims.md'), 'ar'));
    await arabic.user('ann', ['employee']);
    const created = await arabic.api('ann', 'POST', '/api/claims', {
      title: 'Train to Lyon.',
      amount: '18.50',
      merchant: 'SNCF, Gare de Lyon.',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    renderApp(arabic, { as: 'ann', path: `/claims/${String(created.body['id'])}`, locale: 'ar' });
    const heading = await screen.findByRole('heading', { name: 'Train to Lyon.', level: 1 });
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    // the title and a typed value are isolated, each in the direction of its first strong letter
    // (the Unicode bidi algorithm): an English sentence keeps its full stop at its end
    expect(heading).toHaveAttribute('dir', 'auto');
    const merchant = await screen.findAllByText('SNCF, Gare de Lyon.');
    for (const shown of merchant) expect(shown.closest('[dir="auto"]')).not.toBeNull();
    // a value the app formats (an amount) is not: it follows the page
    const amounts = screen.getAllByText(/18[.,٫]50/);
    for (const amount of amounts) expect(amount.closest('[dir="auto"]')).toBeNull();
  }, 60_000);
});
