import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { decisionsLoaded } from '../src/runtime/access';
import { SAMPLE_PDF, renderApp, world } from './harness';

// The list's first rows wait for nothing they do not need: not for the engine's decisions on records
// (CEL's evaluator: a list decides with the roles' grants alone), not for its filters' inputs (they
// come in the frame after the rows, where placeholders of their size stood).
configure({ asyncUtilTimeout: 10_000 });

describe('a list’s first frame', { timeout: 90_000 }, () => {
  it('shows the rows with the filters’ places, the filters after, and needs no decision on records', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { status } = await w.api('ann', 'POST', '/api/claims', {
      title: 'Train to Lyon',
      category: 'travel',
      amount: '120.50',
      spentOn: '2026-02-10',
      receipt: (await w.upload('ann', SAMPLE_PDF)).id,
    });
    expect(status).toBe(201);
    renderApp(w, { as: 'ann', path: '/my-claims' });

    // the frame the rows first appear in: the filters are placeholders, busy, labelled as the filters
    // will be (one per filter, in the filters' order), with nothing in them to reach or read
    const link = await screen.findByRole('link', { name: 'Train to Lyon' });
    const placeholder = screen.getByRole('region', { name: 'Filters', busy: true });
    const labels = [...placeholder.querySelectorAll('.mantine-InputWrapper-label')].map((l) => l.textContent);
    expect(labels).toEqual(['State', 'Category', 'Spent on']);
    expect(placeholder.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    expect(within(placeholder).queryAllByRole('textbox')).toEqual([]);
    // the row, as the full list shows it, and the way to create from the grants alone
    const row = link.closest('tr');
    if (row === null) throw new Error('no row');
    expect(within(row).getByText('€120.50')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'New claim' })).toBeInTheDocument();

    // then the filters themselves, under the same labels, and the row is the same element
    const filters = await screen.findByRole('region', { name: 'Filters', busy: false });
    expect(within(filters).getByLabelText('Spent on from')).toBeInTheDocument();
    expect(within(filters).getByLabelText('Category', { selector: 'input' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Filters', busy: true })).toBeNull();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Train to Lyon' })).toBe(link));

    // all of it shown while the engine's decisions on records have not loaded: this list offers no
    // transition, so nothing on it waits for a condition evaluated on a record (were the rows to need
    // them, they would have waited for them, and the decisions would be here by now)
    expect(decisionsLoaded()).toBe(false);
  });
});
