import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_PDF, type World, renderApp, world } from './harness';

// the test server's clock stands on 2026-03-01: every expense is before it
interface ClaimInput {
  title: string;
  amount?: string;
  category?: string;
  spentOn?: string;
  merchant?: string;
  urgent?: boolean;
}

async function claim(w: World, who: string, input: ClaimInput): Promise<string> {
  const { status, body } = await w.api(who, 'POST', '/api/claims', {
    category: 'travel',
    amount: '20.00',
    spentOn: '2026-02-01',
    // a claim above the receipt threshold holds a receipt: each claim its own upload
    receipt: (await w.upload(who, SAMPLE_PDF)).id,
    ...input,
  });
  if (status !== 201) throw new Error(`claim not created: ${status} ${JSON.stringify(body)}`);
  return String(body['id']);
}

async function submit(w: World, who: string, id: string): Promise<void> {
  const { status } = await w.api(
    who,
    'POST',
    `/api/claims/${id}/transitions/submit`,
    {},
    { 'if-match': '"1"' },
  );
  if (status !== 200) throw new Error(`claim ${id} not submitted: ${status}`);
}

const table = (name: string) => screen.findByRole('table', { name });

/** The first cell of every row rendered, in order (the header row and spacers left out). */
function titles(name = 'My claims'): string[] {
  const rows = within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);
  return rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

async function waitForTitles(expected: string[], name = 'My claims') {
  await waitFor(() => expect(titles(name)).toEqual(expected));
}

function paramsOf(history: ReturnType<typeof renderApp>['history']): URLSearchParams {
  return new URLSearchParams(history.location.search);
}

// the screen's code loads lazily and the machine is shared: give first renders time
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  localStorage.clear();
});

// slow on a shared machine: each test starts a server and renders the whole app
describe('a list screen', { timeout: 90_000 }, () => {
  it('shows the screen’s columns, the total, a way to create, and opens a row by its link, a click or Enter', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const lyon = await claim(w, 'ann', { title: 'Train to Lyon', amount: '120.50', spentOn: '2026-02-10' });
    await claim(w, 'ann', {
      title: 'Hotel in Lyon',
      category: 'lodging',
      amount: '89.00',
      spentOn: '2026-02-11',
    });
    const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims' });

    const list = await table('My claims');
    expect(screen.getByRole('heading', { name: 'My claims', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('My claims · Expense claims'));
    expect(await screen.findByText('2 claims')).toBeInTheDocument();
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Title', 'Category', 'Amount', 'Spent on', 'State', 'Updated']);
    // newest expense first (the screen's sort), values as people read them
    await waitForTitles(['Hotel in Lyon', 'Train to Lyon']);
    const row = screen.getByRole('link', { name: 'Train to Lyon' }).closest('tr');
    if (row === null) throw new Error('no row');
    expect(within(row).getByText('€120.50')).toBeInTheDocument();
    expect(within(row).getByText('10 Feb 2026')).toBeInTheDocument();
    expect(within(row).getByText('Draft')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Train to Lyon' })).toHaveAttribute('href', `/claims/${lyon}`);
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'New claim' })).toHaveAttribute(
      'href',
      '/claims/new',
    );

    await user.click(within(row).getByText('€120.50'));
    expect(history.location.pathname).toBe(`/claims/${lyon}`);

    await act(() => history.go(-1));
    await table('My claims');
    const again = screen.getByRole('link', { name: 'Train to Lyon' }).closest('tr');
    if (again === null) throw new Error('no row');
    again.focus();
    await user.keyboard('{Enter}');
    expect(history.location.pathname).toBe(`/claims/${lyon}`);
  });

  it('offers no “New” button to a role that may not create', async () => {
    const w = await world('expense-claims.md');
    await w.user('audrey', ['auditor']);
    renderApp(w, { as: 'audrey', path: '/claims' });
    await screen.findByText('No claims yet');
    expect(screen.getByRole('heading', { name: 'All claims' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: /^New/ })).toBeNull();
  });

  it('sorts on the server by a clicked column, both ways, and the back button restores the order', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await claim(w, 'ann', { title: 'Middle', amount: '50.00', spentOn: '2026-02-03' });
    await claim(w, 'ann', { title: 'Cheapest', amount: '5.00', spentOn: '2026-02-01' });
    await claim(w, 'ann', { title: 'Dearest', amount: '500.00', spentOn: '2026-02-02' });
    const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await table('My claims');
    await waitForTitles(['Middle', 'Dearest', 'Cheapest']);
    expect(screen.getByRole('columnheader', { name: /Spent on/ })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Amount' }));
    await waitForTitles(['Cheapest', 'Middle', 'Dearest']);
    expect(screen.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Spent on/ })).toHaveAttribute('aria-sort', 'none');
    expect(paramsOf(history).get('sort')).toBe('amount');

    await user.click(screen.getByRole('button', { name: 'Amount' }));
    await waitForTitles(['Dearest', 'Middle', 'Cheapest']);
    expect(screen.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');

    await act(() => history.go(-1));
    await waitForTitles(['Cheapest', 'Middle', 'Dearest']);
    await act(() => history.go(-1));
    await waitForTitles(['Middle', 'Dearest', 'Cheapest']);
  });

  it('narrows the rows with the filters and the search, each kept in the URL', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const hotel = await claim(w, 'ann', {
      title: 'Hotel in Lyon',
      category: 'lodging',
      amount: '89.00',
      spentOn: '2026-02-11',
    });
    await claim(w, 'ann', {
      title: 'Train to Lyon',
      amount: '120.50',
      spentOn: '2026-02-10',
      merchant: 'SNCF',
    });
    await claim(w, 'ann', { title: 'Taxi', amount: '18.00', spentOn: '2026-01-20' });
    await submit(w, 'ann', hotel);
    const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await table('My claims');
    await waitForTitles(['Hotel in Lyon', 'Train to Lyon', 'Taxi']);
    const filters = within(await screen.findByRole('region', { name: 'Filters', busy: false }));

    // state, among the state labels of the spec
    await user.click(filters.getByLabelText('State', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Waiting for approval' }));
    await waitForTitles(['Hotel in Lyon']);
    expect(paramsOf(history).get('state[in]')).toBe('submitted');
    expect(screen.getByText('1 claim')).toBeInTheDocument();

    // clearing everything brings all rows back
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitForTitles(['Hotel in Lyon', 'Train to Lyon', 'Taxi']);

    // category: several values at once
    await user.click(filters.getByLabelText('Category', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Travel' }));
    await waitForTitles(['Train to Lyon', 'Taxi']);
    expect(paramsOf(history).get('category[in]')).toBe('travel');

    // a date range, inclusive
    await user.type(filters.getByLabelText('Spent on from'), '2026-02-01');
    await waitForTitles(['Train to Lyon']);
    expect(paramsOf(history).get('spentOn[gte]')).toBe('2026-02-01');
    await user.clear(filters.getByLabelText('Spent on from'));
    await waitForTitles(['Train to Lyon', 'Taxi']);

    // the search, debounced
    await user.type(screen.getByRole('searchbox', { name: 'Search claims' }), 'sncf');
    await waitForTitles(['Train to Lyon']);
    expect(paramsOf(history).get('q')).toBe('sncf');

    // back undoes the search, and the box follows
    await act(() => history.go(-1));
    await waitForTitles(['Train to Lyon', 'Taxi']);
    expect(screen.getByRole('searchbox', { name: 'Search claims' })).toHaveValue('');
  });

  it('opens on a deep link with its filters applied and shown', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await claim(w, 'ann', {
      title: 'Hotel in Lyon',
      category: 'lodging',
      amount: '89.00',
      spentOn: '2026-02-11',
    });
    await claim(w, 'ann', { title: 'Train to Lyon', amount: '120.50', spentOn: '2026-02-10' });
    await claim(w, 'ann', { title: 'Taxi', amount: '18.00', spentOn: '2026-01-20' });
    await claim(w, 'ann', { title: 'Laptop stand', category: 'equipment', amount: '45.00' });
    const { user, history } = renderApp(w, {
      as: 'ann',
      path: '/my-claims?category%5Bin%5D=travel%2Clodging&amount%5Bgte%5D=50&sort=amount',
    });
    await waitForTitles(['Hotel in Lyon', 'Train to Lyon']);
    // the chosen values show as pills in the category filter
    const filters = within(await screen.findByRole('region', { name: 'Filters', busy: false }));
    const pills = filters.getAllByText(/^(Travel|Lodging)$/, { selector: '.mantine-Pill-label' });
    expect(pills.map((p) => p.textContent)).toEqual(['Travel', 'Lodging']);

    // a filter the screen does not offer still applies, and "Clear filters" removes it with the rest
    await user.type(filters.getByLabelText('Spent on to'), '2026-02-10');
    await waitForTitles(['Train to Lyon']);
    expect(paramsOf(history).get('spentOn[lte]')).toBe('2026-02-10');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitForTitles(['Taxi', 'Laptop stand', 'Hotel in Lyon', 'Train to Lyon']);
    expect(paramsOf(history).get('sort')).toBe('amount');
    expect(paramsOf(history).get('amount[gte]')).toBeNull();
  });

  it('shows only the rows of its screen: a director’s own claims on “My claims”, everyone’s on “All claims”', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await w.user('dana', ['director']);
    await claim(w, 'ann', { title: 'Ann’s train', spentOn: '2026-02-03' });
    await claim(w, 'dana', { title: 'Dana’s taxi', spentOn: '2026-02-02' });
    await claim(w, 'dana', { title: 'Dana’s hotel', spentOn: '2026-02-01' });
    // a director may read every claim: only the screen's `where: own` keeps Ann's out
    const mine = renderApp(w, { as: 'dana', path: '/my-claims' });
    await waitForTitles(['Dana’s taxi', 'Dana’s hotel']);
    expect(screen.getByText('2 claims')).toBeInTheDocument();
    expect(screen.queryByText('Ann’s train')).toBeNull();
    mine.unmount();

    renderApp(w, { as: 'dana', path: '/claims?sort=-spentOn' });
    await waitForTitles(['Ann’s train', 'Dana’s taxi', 'Dana’s hotel'], 'All claims');
    expect(screen.getByText('3 claims')).toBeInTheDocument();
  });

  it('loads page after page as the user scrolls, keeping only the rows near the window in the page', async () => {
    const w = await world('expense-claims.md');
    expect(w.model.limits.pageSize).toBe(25);
    await w.user('ann', ['employee']);
    for (let i = 1; i <= 60; i++) await claim(w, 'ann', { title: `Claim ${String(i).padStart(2, '0')}` });
    renderApp(w, { as: 'ann', path: '/my-claims?sort=title' });
    await table('My claims');
    expect(await screen.findByText('60 claims')).toBeInTheDocument();
    await waitFor(() => expect(titles()[0]).toBe('Claim 01'));
    const list = screen.getByRole('table', { name: 'My claims' });
    expect(list).toHaveAttribute('aria-rowcount', '61');
    // virtualised: far fewer rows in the document than in the list
    expect(titles().length).toBeLessThan(40);
    expect(screen.queryByText('Claim 60')).toBeNull();

    // scrolling down renders later rows and fetches the pages after them
    for (let step = 1; step <= 10 && screen.queryByText('Claim 60') === null; step++) {
      await act(async () => {
        Object.defineProperty(window, 'scrollY', { value: step * 600, configurable: true });
        window.dispatchEvent(new Event('scroll'));
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
    }
    expect(await screen.findByRole('link', { name: 'Claim 60' })).toBeInTheDocument();
    expect(screen.queryByText('Claim 01')).toBeNull();
    const rows = within(list).getAllByRole('row');
    expect(rows.at(-1)).toHaveAttribute('aria-rowindex', '61');
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });

  it('loads more with a button too, for keyboards and screen readers', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    for (let i = 1; i <= 80; i++) await claim(w, 'ann', { title: `Claim ${String(i).padStart(2, '0')}` });
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims?sort=title' });
    await table('My claims');
    // the first screenful asks for the second page by itself; then the button offers the third
    const more = await screen.findByRole('button', { name: 'Load more (50 of 80 shown)' });
    await user.click(more);
    expect(await screen.findByRole('button', { name: 'Load more (75 of 80 shown)' })).toBeInTheDocument();
  });

  it('hides a column chosen in the column chooser, and remembers it for the screen', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await claim(w, 'ann', { title: 'Train to Lyon' });
    const first = renderApp(w, { as: 'ann', path: '/my-claims' });
    await table('My claims');
    expect(screen.getByRole('columnheader', { name: /Category/ })).toBeInTheDocument();
    await first.user.click(screen.getByRole('button', { name: 'Columns' }));
    await first.user.click(await screen.findByRole('checkbox', { name: 'Category' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Category/ })).toBeNull());
    expect(screen.getByRole('row', { name: /Train to Lyon/ })).not.toHaveTextContent('Travel');
    first.unmount();

    renderApp(w, { as: 'ann', path: '/my-claims' });
    await table('My claims');
    await screen.findByRole('link', { name: 'Train to Lyon' });
    expect(screen.queryByRole('columnheader', { name: /Category/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Amount/ })).toBeInTheDocument();
  });

  it('exports what it shows as CSV: the link carries the screen, filters, search and sort', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await w.user('bob', ['employee']);
    await claim(w, 'ann', { title: 'Train to Lyon', merchant: 'SNCF' });
    await claim(w, 'ann', { title: 'Hotel in Lyon', category: 'lodging' });
    await claim(w, 'bob', { title: 'Bob’s train' });
    const { user } = renderApp(w, {
      as: 'ann',
      path: '/my-claims?category%5Bin%5D=travel&q=lyon&sort=amount',
    });
    await waitForTitles(['Train to Lyon']);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const link = await screen.findByRole('menuitem', { name: 'CSV' });
    const href = link.getAttribute('href') ?? '';
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe('/api/claims');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'category[in]': 'travel',
      screen: 'my-claims',
      sort: 'amount',
      q: 'lyon',
      format: 'csv',
    });
    expect(link).toHaveAttribute('download');

    const response = await w.server.app.inject({
      method: 'GET',
      url: href,
      headers: { cookie: w.users['ann']?.cookie ?? '' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    expect(response.body).toContain('Train to Lyon');
    expect(response.body).not.toContain('Hotel in Lyon');
    expect(response.body).not.toContain('Bob’s train');
  });

  it('says when there is nothing yet, and when nothing matches, with a way back', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const empty = renderApp(w, { as: 'ann', path: '/my-claims' });
    expect(await screen.findByText('No claims yet')).toBeInTheDocument();
    expect(screen.getByText('Create the first one with “New claim”.')).toBeInTheDocument();
    empty.unmount();

    await claim(w, 'ann', { title: 'Train to Lyon' });
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims?q=nowhere' });
    expect(await screen.findByText('No claims match')).toBeInTheDocument();
    const panel =
      screen.getByText('No claims match').closest('div')?.parentElement?.parentElement ?? document.body;
    await user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('link', { name: 'Train to Lyon' })).toBeInTheDocument();
  });

  it('shows a refused query as its catalogue message, with the filters still there to change', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims?amount%5Bgte%5D=lots' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-code', 'E_INVALID_QUERY');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No claims yet')).toBeInTheDocument();
  });

  it('offers the screen’s transitions on each row that allows them, and the row leaves the queue once done', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await w.user('dana', ['director']);
    const lyon = await claim(w, 'ann', { title: 'Train to Lyon' });
    const taxi = await claim(w, 'ann', { title: 'Taxi' });
    await claim(w, 'ann', { title: 'Still a draft' });
    await submit(w, 'ann', lyon);
    await submit(w, 'ann', taxi);
    const { user } = renderApp(w, { as: 'dana', path: '/approvals' });
    await table('To approve');
    await waitForTitles(['Train to Lyon', 'Taxi'], 'To approve');
    const row = screen.getByRole('row', { name: /Train to Lyon/ });
    expect(within(row).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    // a reference is ordered by its id, which means nothing to a reader: no sort on it
    expect(within(screen.getByRole('columnheader', { name: 'Claimant' })).queryByRole('button')).toBeNull();
    expect(
      within(screen.getByRole('columnheader', { name: /Amount/ })).getByRole('button'),
    ).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    await waitForTitles(['Taxi'], 'To approve');
    const after = await w.api('dana', 'GET', `/api/claims/${lyon}`);
    expect(after.body['state']).toBe('approved');
  });

  it('shows compact cards on a phone, with the filters folded away and the sort as a choice', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const lyon = await claim(w, 'ann', { title: 'Train to Lyon', amount: '120.50', spentOn: '2026-02-10' });
    await claim(w, 'ann', { title: 'Taxi', amount: '18.00', spentOn: '2026-01-20' });
    const wide = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...wide(query), matches: query.includes('max-width') });
    try {
      const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims' });
      const cards = await screen.findByRole('list', { name: 'My claims' });
      expect(screen.queryByRole('table')).toBeNull();
      await waitFor(() =>
        expect(
          within(cards)
            .getAllByRole('listitem')
            .map((c) => c.querySelector('a')?.textContent),
        ).toEqual(['Train to Lyon', 'Taxi']),
      );
      const card = within(cards).getAllByRole('listitem')[0];
      if (card === undefined) throw new Error('no card');
      expect(within(card).getByText('Amount')).toBeInTheDocument();
      expect(within(card).getByText('€120.50')).toBeInTheDocument();
      expect(within(card).getByText('Draft')).toBeInTheDocument();

      const toggle = screen.getByRole('button', { name: 'Filters' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await user.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');

      await user.click(await screen.findByRole('combobox', { name: 'Sort by' }));
      await user.click(await screen.findByRole('option', { name: 'Amount, ascending' }));
      await waitFor(() =>
        expect(
          within(cards)
            .getAllByRole('listitem')
            .map((c) => c.querySelector('a')?.textContent),
        ).toEqual(['Taxi', 'Train to Lyon']),
      );
      await user.click(within(cards).getByText('€120.50'));
      expect(history.location.pathname).toBe(`/claims/${lyon}`);
    } finally {
      window.matchMedia = wide;
    }
  });
});
