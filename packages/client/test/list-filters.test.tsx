import { type Field } from '@ninefold/model';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../src/i18n/i18n';
import { modelOf, renderFilterBar } from './harness';

// The filters of every field type, on their own: what each one puts in the list's query. The
// examples' screens filter on few types, so the others are checked here on Claim's fields.
configure({ asyncUtilTimeout: 5000 });
const model = modelOf('expense-claims.md');
const claim = model.entities['Claim'];
if (claim === undefined) throw new Error('no Claim');
const fields = ['amount', 'urgent', 'merchant', 'tags', 'submittedAt'].map((name) => {
  const field = claim.fields[name];
  if (field === undefined) throw new Error(`no ${name}`);
  return field;
}) as Field[];
// the filters' texts, in English, loaded before any test renders them
const i18n = createI18n({ locales: model.product.locales, wanted: ['en'] });
beforeAll(() => i18n.ready());

function renderFilters(initial = '') {
  return renderFilterBar({ model, entity: 'Claim', fields, i18n }, initial);
}

describe('the filters of a list', () => {
  it('turns a money range into gte and lte, and refuses what is not a number', async () => {
    const { user, params, changes } = renderFilters();
    await user.type(screen.getByLabelText('Amount from'), '50');
    await user.type(screen.getByLabelText('Amount to'), '100.00');
    await waitFor(() => expect(params().get('amount[lte]')).toBe('100.00'));
    expect(params().get('amount[gte]')).toBe('50');

    const count = changes.length;
    // typed over the bound in one go: no step on the way ('O', 'O1', 'O10') is a number or empty,
    // so however slowly the keys come, nothing may be sent
    const to = screen.getByLabelText<HTMLInputElement>('Amount to');
    await user.type(to, 'O10', { initialSelectionStart: 0, initialSelectionEnd: to.value.length });
    expect(await screen.findByText('Enter a number, like 12.50')).toBeInTheDocument();
    // what is not a number is never sent: the last bound stays until a number replaces it
    await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    expect(changes.length).toBe(count);
    expect(params().get('amount[lte]')).toBe('100.00');
    await user.clear(screen.getByLabelText('Amount to'));
    await waitFor(() => expect(params().get('amount[lte]')).toBeNull());
  });

  it('asks yes, no or either of a boolean', async () => {
    const { user, params } = renderFilters();
    const group = screen.getByRole('radiogroup', { name: 'Urgent' });
    await user.click(within(group).getByLabelText('Yes'));
    expect(params().get('urgent[eq]')).toBe('true');
    await user.click(within(group).getByLabelText('No'));
    expect(params().get('urgent[eq]')).toBe('false');
    await user.click(within(group).getByLabelText('Any'));
    expect(params().get('urgent[eq]')).toBeNull();
  });

  it('searches text with contains, after a pause or at once on Enter', async () => {
    const { user, params } = renderFilters();
    await user.type(screen.getByLabelText('Merchant'), 'sncf{Enter}');
    expect(params().get('merchant[contains]')).toBe('sncf');
  });

  it('picks one value of a list field with contains', async () => {
    const { user, params } = renderFilters();
    await user.click(screen.getByLabelText('Tags', { selector: 'input' }));
    // jsdom never finishes the dropdown's transition for a Select: the option is chosen as a click would
    fireEvent.click(await screen.findByRole('option', { name: 'Conference', hidden: true }));
    expect(params().get('tags[contains]')).toBe('conference');
  });

  it('picks an instant range by day, from the start of the first to the end of the last, locally', async () => {
    const { user, params } = renderFilters();
    await user.type(screen.getByLabelText('Submitted at from'), '2026-02-01');
    await user.type(screen.getByLabelText('Submitted at to'), '2026-02-28');
    expect(params().get('submittedAt[gte]')).toBe(new Date('2026-02-01T00:00:00.000').toISOString());
    expect(params().get('submittedAt[lte]')).toBe(new Date('2026-02-28T23:59:59.999').toISOString());
  });

  it('shows the filters of a deep link', () => {
    renderFilters(
      'amount%5Bgte%5D=10&urgent%5Beq%5D=true&merchant%5Bcontains%5D=air&submittedAt%5Bgte%5D=' +
        encodeURIComponent(new Date('2026-02-01T00:00:00').toISOString()),
    );
    expect(screen.getByLabelText('Amount from')).toHaveValue('10');
    expect(screen.getByLabelText('Merchant')).toHaveValue('air');
    expect(screen.getByLabelText('Submitted at from')).toHaveValue('2026-02-01');
    expect(within(screen.getByRole('radiogroup', { name: 'Urgent' })).getByLabelText('Yes')).toBeChecked();
  });
});
