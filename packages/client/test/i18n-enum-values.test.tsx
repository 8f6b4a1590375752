/**
 * Enum values in the reader's language (issue 15): a list's cell, a form's select and a list's
 * filter show a value by its label, translated like the spec's other words
 * (`entities.Claim.fields.category.values.meals` in `expense-claims.fr-FR.yaml`), never humanised
 * English.
 */
import { localizeModel } from '@ninefold/model';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../src/i18n/i18n';
import { SAMPLE_PDF, modelOf, renderApp, renderFilterBar, world } from './harness';

configure({ asyncUtilTimeout: 10_000 });

describe('enum values in French', { timeout: 90_000 }, () => {
  it('shows a value’s translated label in a list cell', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { status } = await w.api('ann', 'POST', '/api/claims', {
      title: 'Train to Lyon',
      category: 'travel',
      amount: '20.00',
      spentOn: '2026-02-01',
      receipt: (await w.upload('ann', SAMPLE_PDF)).id,
    });
    expect(status).toBe(201);
    renderApp(w, { as: 'ann', path: '/my-claims', locale: 'fr-FR' });
    const row = (await screen.findByText('Train to Lyon')).closest('tr');
    if (row === null) throw new Error('no row');
    expect(within(row).getByText('Déplacements')).toBeInTheDocument();
    expect(within(row).queryByText('Travel')).toBeNull();
  });

  it('offers the translated labels in a form’s select, keeping the values', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    renderApp(w, { as: 'ann', path: '/claims/new', locale: 'fr-FR' });
    const select = await screen.findByRole('combobox', { name: /^Catégorie/ });
    const meals = within(select).getByRole('option', { name: 'Repas' });
    expect(meals).toHaveValue('meals');
    expect(within(select).getByRole('option', { name: 'Déplacements' })).toHaveValue('travel');
    expect(within(select).queryByRole('option', { name: 'Meals' })).toBeNull();
  });

  it('offers the translated labels in a list’s filter, and filters by the value', async () => {
    const model = localizeModel(modelOf('expense-claims.md'), 'fr-FR');
    const i18n = createI18n({ locales: ['en-GB', 'fr-FR'], wanted: ['fr-FR'] });
    await i18n.ready();
    const { params, user } = renderFilterBar({
      model,
      entity: 'Claim',
      fields: [model.entities['Claim']!.fields['category']!],
      i18n,
    });
    await user.click(screen.getByLabelText('Catégorie', { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Repas', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Meals', hidden: true })).toBeNull();
    // jsdom never finishes the dropdown's transition: the option is chosen as a click would
    fireEvent.click(screen.getByRole('option', { name: 'Indemnités kilométriques', hidden: true }));
    expect(params().get('category[in]')).toBe('mileage');
  });
});
