/**
 * Lists and dashboards in the reader's language: the chrome around the spec's words (the empty
 * state, the column chooser, the export menu, a widget's table toggle) comes from the catalogues,
 * and the filters read numbers and dates as the reader's locale writes them.
 */
import { type Field, type Model, localizeModel } from '@ninefold/model';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../src/i18n/i18n';
import { SAMPLE_PDF, modelOf, renderApp, renderFilterBar, world } from './harness';

configure({ asyncUtilTimeout: 10_000 });

/** The expense claims' words as a French reader meets them, lower case inside a sentence. */
function frenchWords(model: Model) {
  const fr = localizeModel(model, 'fr-FR');
  const claim = fr.entities['Claim']!;
  const title = fr.screens.find((s) => s.id === 'my-claims')!.title;
  return {
    title,
    one: claim.label.toLocaleLowerCase('fr'),
    other: claim.pluralLabel.toLocaleLowerCase('fr'),
  };
}

describe('lists and dashboards in other languages', { timeout: 90_000 }, () => {
  it('shows a list’s chrome in French: the empty state, the column chooser, the export menu', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims', locale: 'fr-FR' });
    const { title, one, other } = frenchWords(w.model);

    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    // the spec's words (its French translation) inside a French phrase
    expect(await screen.findByText(`Aucun élément pour l’instant : ${other}`)).toBeInTheDocument();
    expect(screen.getByText(`Créez le premier avec « Nouveau : ${one} ».`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Colonnes' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Exporter en CSV' }));
    expect(await screen.findByRole('menuitem', { name: 'CSV (valeurs brutes)' })).toBeInTheDocument();
    expect(screen.queryByText(/No claims yet|Export CSV/)).toBeNull();
  });

  it('counts rows and names the toolbar in French', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    for (const title of ['Train to Lyon', 'Hotel in Lyon']) {
      const { status } = await w.api('ann', 'POST', '/api/claims', {
        title,
        category: 'travel',
        amount: '20.00',
        spentOn: '2026-02-01',
        receipt: (await w.upload('ann', SAMPLE_PDF)).id,
      });
      expect(status).toBe(201);
    }
    renderApp(w, { as: 'ann', path: '/my-claims', locale: 'fr-FR' });
    const { one, other } = frenchWords(w.model);
    await waitFor(() => expect(screen.getByTestId('list-count')).toHaveTextContent(`2 ${other}`));
    expect(screen.getByRole('link', { name: `Nouveau : ${one}` })).toBeInTheDocument();
    // the toolbar and the table's own chrome
    expect(screen.getByRole('button', { name: 'Colonnes' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Filtres' })).toBeInTheDocument();
    // the system columns and filters are named by the app, so in French too, beside the spec's fields
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['État', 'Modifié le']));
    expect(headers).not.toEqual(expect.arrayContaining(['State']));
    expect(headers).not.toEqual(expect.arrayContaining(['Updated']));
    const filters = await screen.findByRole('region', { name: 'Filtres', busy: false });
    expect(within(filters).getByLabelText('État', { selector: 'input' })).toBeInTheDocument();
  });

  it('shows a dashboard widget’s chrome in Japanese', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    renderApp(w, { as: 'ann', path: '/my-figures', locale: 'ja-JP' });
    expect(await screen.findByRole('heading', { name: 'My figures', level: 1 })).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: 'Waiting for approval', level: 2 })).closest(
      'section',
    );
    if (card === null) throw new Error('no card');
    // no claim waits: the widget says so in Japanese, around the spec's word
    expect(await within(card).findByText('Claimsはまだありません')).toBeInTheDocument();
  });
});

describe('the admin pages in other languages', { timeout: 90_000 }, () => {
  it('shows the jobs page in German: its title, its state filter, its empty state', async () => {
    const w = await world('expense-claims.md');
    await w.user('ada', ['admin', 'employee']);
    const { user } = renderApp(w, { as: 'ada', path: '/admin/jobs?state=dead', locale: 'de-DE' });
    expect(await screen.findByRole('heading', { name: 'Aufträge', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Keine abgebrochenen Aufträge.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Verwaltung' })).toBeInTheDocument();
    await user.click(screen.getByText('Alle'));
    expect(await screen.findByText('Noch keine Aufträge.')).toBeInTheDocument();
  });
});

describe('the filters in the reader’s locale', () => {
  const english = modelOf('expense-claims.md');
  // the localized model: the reader's locale is the product's
  const model = { ...english, product: { ...english.product, locale: 'fr-FR' } };
  const claim = model.entities['Claim'];
  if (claim === undefined) throw new Error('no Claim');
  const fields = ['amount', 'spentOn'].map((name) => claim.fields[name]) as Field[];

  async function renderFilters(initial: string) {
    const i18n = createI18n({ locales: ['en-GB', 'fr-FR'], wanted: ['fr-FR'] });
    await i18n.ready();
    return renderFilterBar({ model, entity: 'Claim', fields, i18n }, initial);
  }

  it('reads a date range in day/month order (fr-FR) and a number with a decimal comma', async () => {
    const { params, user } = await renderFilters('amount[gte]=12.5');
    // the date inputs are written in French: the browser shows them day/month/year
    const from = screen.getByLabelText<HTMLInputElement>('Spent on : du');
    expect(from).toHaveAttribute('type', 'date');
    expect(from).toHaveAttribute('lang', 'fr-FR');
    await waitFor(() => expect(document.documentElement.lang).toBe('fr-FR'));
    // a number of the URL shown with a comma, and one typed with a comma sent with a point
    expect(screen.getByLabelText<HTMLInputElement>('Amount : du').value).toBe('12,5');
    await user.type(screen.getByLabelText('Amount : au'), '100,75');
    await waitFor(() => expect(params().get('amount[lte]')).toBe('100.75'));
    await user.type(screen.getByLabelText('Amount : au'), 'x');
    expect(await screen.findByText('Saisissez un nombre, par exemple 12,50')).toBeInTheDocument();
  });
});
