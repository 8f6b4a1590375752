/**
 * The dashboard screen against the real server (the session, the model, the lists it opens), its
 * figures answered from fixtures in the wire types of `GET <basePath>/dashboards/<screen id>`: every
 * chart kind, the table view, the click-through to the filtered list, the empty and error states,
 * money in the product's locale, and the landing screen.
 */
import {
  type DashboardFigures,
  type Model,
  type Screen,
  type Widget,
  type WidgetFigure,
} from '@ninefold/model';
import { QueryClient, focusManager } from '@tanstack/react-query';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboardKey } from '../src/api/dashboard-keys';
import { settleWrite } from '../src/api/records';
import { type QueuedWrite } from '../src/offline/queue';
import { type World, modelOf, renderApp, world } from './harness';

configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  localStorage.clear();
});

const expr = (source: string, names: string[]) => ({ source, names });

function widget(id: string, title: string, rest: Partial<Widget>): Widget {
  return {
    id,
    title,
    entity: 'Claim',
    where: null,
    measure: { kind: 'count' },
    by: null,
    chart: 'number',
    ...rest,
  };
}

const WIDGETS: Widget[] = [
  widget('spent', 'Spent', { measure: { kind: 'sum', field: 'amount' } }),
  widget('by-state', 'Claims by state', { by: { field: 'state', bucket: null }, chart: 'bar' }),
  widget('by-month', 'Claims by month', { by: { field: 'spentOn', bucket: 'month' }, chart: 'line' }),
  widget('by-category', 'Spent by category', {
    measure: { kind: 'sum', field: 'amount' },
    by: { field: 'category', bucket: null },
    chart: 'pie',
  }),
  widget('by-department', 'Claims by department', {
    by: { field: 'department', bucket: null },
    chart: 'table',
  }),
  widget('waiting', 'Waiting', { where: expr("state == 'submitted'", ['state']) }),
  widget('mine', 'Mine', { where: expr('own', ['own']) }),
  widget('urgent', 'Urgent by state', {
    where: expr('urgent', ['urgent']),
    by: { field: 'state', bucket: null },
    chart: 'bar',
  }),
];

const FIGURES: DashboardFigures = {
  screen: 'overview',
  widgets: [
    { id: 'spent', value: '1234.5', groups: null },
    {
      id: 'by-state',
      value: null,
      groups: [
        { key: 'draft', label: 'Draft', value: 3 },
        { key: 'submitted', label: 'Submitted', value: 5 },
      ],
    },
    {
      id: 'by-month',
      value: null,
      groups: [
        { key: '2026-10-01', label: 'Oct 2026', value: 2 },
        { key: '2026-11-01', label: 'Nov 2026', value: 6 },
      ],
    },
    {
      id: 'by-category',
      value: null,
      groups: [
        { key: 'travel', label: 'Travel', value: '1000' },
        { key: 'meals', label: 'Meals', value: '234.5' },
      ],
    },
    {
      id: 'by-department',
      value: null,
      groups: [
        { key: 'd1', label: 'Sales', value: 7 },
        { key: null, label: 'None', value: 1 },
      ],
    },
    { id: 'waiting', value: 5, groups: null },
    { id: 'mine', value: 2, groups: null },
    { id: 'urgent', value: null, groups: [] },
  ],
};

/**
 * Expense claims with one dashboard screen of its own (the example's aside), first in the
 * navigation or last, and `dashboard` as given.
 */
function withDashboard(options: { dashboard?: boolean; first?: boolean; generated?: boolean } = {}): Model {
  const model = modelOf('expense-claims.md');
  const overview: Screen = {
    id: 'overview',
    path: '/overview',
    kind: 'dashboard',
    entity: null,
    title: 'Overview',
    roles: null,
    fields: [],
    filters: [],
    where: null,
    sort: null,
    actions: [],
    body: '',
    related: null,
    widgets: WIDGETS,
    generated: options.generated ?? false,
  };
  const item = { label: 'Overview', screen: 'overview', icon: null };
  // the example's own dashboards aside: this one is the only dashboard
  const screens = model.screens.filter((s) => s.kind !== 'dashboard');
  const nav = model.nav.filter((n) => screens.some((s) => s.id === n.screen));
  return {
    ...model,
    product: { ...model.product, dashboard: options.dashboard ?? false },
    screens: [...screens, overview],
    nav: options.first === false ? [...nav, item] : [item, ...nav],
  };
}

type Answer = { status: number; body: unknown };

/** A network whose dashboard requests are answered by `answers` in turn (the last one repeated). */
function dashboardNetwork(answers: Answer[], asked: string[] = []) {
  return (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      if (!url.pathname.startsWith('/api/dashboards/')) return fetch(input, init);
      asked.push(url.pathname);
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)] ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': answer.status >= 400 ? 'application/problem+json' : 'application/json' },
      });
    };
}

async function setUp(model: Model, who: { name: string; roles: string[] }): Promise<World> {
  const w = await world(model);
  await w.user(who.name, who.roles);
  return w;
}

const card = (title: string) => {
  const heading = screen.getByRole('heading', { name: title, level: 2 });
  const section = heading.closest('section');
  if (section === null) throw new Error(`no card ${title}`);
  return section;
};

describe('a dashboard screen', { timeout: 90_000 }, () => {
  it('draws every kind of figure, money in the product’s locale, and asks for the screen’s figures', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const asked: string[] = [];
    renderApp(w, {
      as: 'dora',
      path: '/overview',
      network: dashboardNetwork([{ status: 200, body: FIGURES }], asked),
    });

    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Overview · Expense claims'));
    // number: the sum of a money field, with its currency and the locale's grouping
    expect(await within(card('Spent')).findByRole('link', { name: '€1,234.50' })).toHaveAttribute(
      'href',
      '/claims',
    );
    expect(asked).toEqual(['/api/dashboards/overview']);
    // bar, line and pie: named for screen readers with every group and its value
    expect(
      within(card('Claims by state')).getByRole('img', { name: 'Claims by state: Draft 3, Submitted 5' }),
    ).toHaveAttribute('data-chart', 'bar');
    expect(
      within(card('Claims by month')).getByRole('img', { name: 'Claims by month: Oct 2026 2, Nov 2026 6' }),
    ).toHaveAttribute('data-chart', 'line');
    const pie = within(card('Spent by category')).getByRole('img', {
      name: 'Spent by category: Travel €1,000.00, Meals €234.50',
    });
    expect(pie).toHaveAttribute('data-chart', 'pie');
    // a slice is labelled with its group, not told apart by its colour alone
    expect(within(pie).getByText('Meals: €234.50')).toBeInTheDocument();
    // table: one row per group, each a link to the list of its rows
    const table = within(card('Claims by department')).getByRole('table', { name: 'Claims by department' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Department', 'Claims']);
    expect(within(table).getByRole('link', { name: 'Sales' })).toHaveAttribute(
      'href',
      '/claims?department%5Beq%5D=d1',
    );
    expect(within(table).getByRole('link', { name: 'None' })).toHaveAttribute(
      'href',
      '/claims?department%5BisNull%5D=true',
    );
    expect(within(table).getByText('7')).toBeInTheDocument();
  });

  it('leaves out a widget the server leaves out (one over what the viewer may not read)', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const some = { ...FIGURES, widgets: FIGURES.widgets.filter((f) => f.id !== 'by-category') };
    renderApp(w, { as: 'dora', path: '/overview', network: dashboardNetwork([{ status: 200, body: some }]) });
    expect(await screen.findByRole('link', { name: '€1,234.50' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Spent by category' })).toBeNull();
    expect(document.querySelectorAll('section[data-widget]')).toHaveLength(WIDGETS.length - 1);
  });

  it('shows a chart as a table on demand, whose rows open the filtered list; a bar opens it too', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const { user, history } = renderApp(w, {
      as: 'dora',
      path: '/overview',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    await screen.findByRole('img', { name: /^Claims by state:/ });

    // a bar: clicked, it opens the list of its group
    const bars = card('Claims by state').querySelectorAll('.recharts-bar-rectangle');
    expect(bars).toHaveLength(2);
    await user.click(bars[1]?.querySelector('path') ?? bars[1]!);
    await waitFor(() => expect(history.location.pathname).toBe('/claims'));
    expect(new URLSearchParams(history.location.search).get('state[eq]')).toBe('submitted');
    expect(await screen.findByRole('heading', { name: 'All claims', level: 1 })).toBeInTheDocument();

    await act(() => history.go(-1));
    await screen.findByRole('img', { name: /^Claims by month:/ });
    // a point of a line: clicked, it opens its month
    const dots = card('Claims by month').querySelectorAll('circle.nf-line-dot');
    expect(dots).toHaveLength(2);
    await user.click(dots[0]!);
    await waitFor(() =>
      expect(history.location.search).toBe('?spentOn%5Bgte%5D=2026-10-01&spentOn%5Blt%5D=2026-11-01'),
    );
    await act(() => history.go(-1));
    await screen.findByRole('img', { name: /^Claims by month:/ });
    // the table view of a line chart, toggled by a button that says whether it is pressed
    const toggle = within(card('Claims by month')).getByRole('button', {
      name: 'Claims by month: table view',
    });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(within(card('Claims by month')).queryByRole('img')).toBeNull();
    const table = within(card('Claims by month')).getByRole('table', { name: 'Claims by month' });
    // a month's bucket is the range of its days
    const november = within(table).getByRole('link', { name: 'Nov 2026' });
    expect(november).toHaveAttribute(
      'href',
      '/claims?spentOn%5Bgte%5D=2026-11-01&spentOn%5Blt%5D=2026-12-01',
    );
    november.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(history.location.search).toBe('?spentOn%5Bgte%5D=2026-11-01&spentOn%5Blt%5D=2026-12-01'),
    );
    expect(await screen.findByRole('heading', { name: 'All claims', level: 1 })).toBeInTheDocument();
  });

  it('leads a figure to the list with the same condition, and says when the list shows more', async () => {
    const w = await setUp(withDashboard(), { name: 'eve', roles: ['employee'] });
    renderApp(w, {
      as: 'eve',
      path: '/overview',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    // an employee may open only My claims (`where: own`): the widget of `own` leads there exactly
    await screen.findByRole('heading', { name: 'Mine', level: 2 });
    const mine = await within(card('Mine')).findByRole('link', { name: '2' });
    expect(mine).toHaveAttribute('href', '/my-claims');
    expect(within(card('Mine')).queryByText(/shows more than this figure counts/)).toBeNull();
    // a widget of every readable claim also leads there, with a note that the list differs
    expect(within(card('Spent')).getByRole('link', { name: '€1,234.50' })).toHaveAttribute(
      'href',
      '/my-claims',
    );
    expect(
      within(card('Waiting')).getByText('Opens My claims, which shows more than this figure counts.'),
    ).toBeInTheDocument();
  });

  it('says “No claims yet” for a figure over no rows instead of an empty chart', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const empty: DashboardFigures = {
      screen: 'overview',
      widgets: FIGURES.widgets.map((f): WidgetFigure =>
        f.groups === null ? { ...f, value: f.id === 'spent' ? null : 0 } : { ...f, groups: [] },
      ),
    };
    renderApp(w, {
      as: 'dora',
      path: '/overview',
      network: dashboardNetwork([{ status: 200, body: empty }]),
    });
    await waitFor(() =>
      expect(within(card('Urgent by state')).getByText('No claims yet')).toBeInTheDocument(),
    );
    for (const title of [
      'Spent',
      'Claims by state',
      'Claims by month',
      'Spent by category',
      'Claims by department',
    ])
      expect(within(card(title)).getByText('No claims yet')).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    // a count of nothing is still a figure: zero, with the words
    expect(within(card('Waiting')).getByRole('link', { name: '0' })).toBeInTheDocument();
    expect(within(card('Waiting')).getByText('No claims yet')).toBeInTheDocument();
  });

  it('shows the server’s problem with a retry, and the figures once the retry succeeds', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const problem = {
      type: 'about:blank',
      title: 'Internal',
      status: 500,
      code: 'E_INTERNAL',
      message: 'Something failed on the server.',
    };
    const asked: string[] = [];
    const { user } = renderApp(w, {
      as: 'dora',
      path: '/overview',
      network: dashboardNetwork(
        [
          { status: 500, body: problem },
          { status: 200, body: FIGURES },
        ],
        asked,
      ),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The figures could not be loaded')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(card('Spent')).findByRole('link', { name: '€1,234.50' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it('asks for the figures again when the window regains focus', async () => {
    const w = await setUp(withDashboard(), { name: 'dora', roles: ['director'] });
    const later: DashboardFigures = {
      ...FIGURES,
      widgets: FIGURES.widgets.map((f) => (f.id === 'spent' ? { ...f, value: '2000' } : f)),
    };
    const asked: string[] = [];
    renderApp(w, {
      as: 'dora',
      path: '/overview',
      network: dashboardNetwork(
        [
          { status: 200, body: FIGURES },
          { status: 200, body: later },
        ],
        asked,
      ),
    });
    await screen.findByRole('link', { name: '€1,234.50' });
    // a focus after the figures went stale (15 s): TanStack Query's own focus signal
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now + 16_000);
    try {
      act(() => focusManager.setFocused(false));
      act(() => focusManager.setFocused(true));
      expect(await within(card('Spent')).findByRole('link', { name: '€2,000.00' })).toBeInTheDocument();
    } finally {
      clock.mockRestore();
    }
    expect(asked).toHaveLength(2);
  });
});

describe('the figures after a write', () => {
  it('are stale once any record is written, so a dashboard shown next asks again', () => {
    const client = new QueryClient();
    client.setQueryData(dashboardKey('overview'), FIGURES);
    expect(client.getQueryState(dashboardKey('overview'))?.isInvalidated).toBe(false);
    const model = withDashboard();
    const write: QueuedWrite = {
      key: 'k',
      kind: 'create',
      entity: 'Department',
      recordId: null,
      method: 'POST',
      path: 'departments',
      title: 'Sales',
      at: '2026-11-26T10:00:00.000Z',
    };
    settleWrite(client, model, write, { id: 'd1', version: 1 });
    expect(client.getQueryState(dashboardKey('overview'))?.isInvalidated).toBe(true);
  });
});

describe('the landing screen', { timeout: 90_000 }, () => {
  it('is the dashboard when the navigation puts it first', async () => {
    const w = await setUp(withDashboard(), { name: 'eve', roles: ['employee'] });
    const { history } = renderApp(w, {
      as: 'eve',
      path: '/',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    await waitFor(() => expect(history.location.pathname).toBe('/overview'));
  });

  it('is the dashboard when the product asks for one, wherever the navigation puts it', async () => {
    const w = await setUp(withDashboard({ dashboard: true, first: false }), {
      name: 'eve',
      roles: ['employee'],
    });
    const { history } = renderApp(w, {
      as: 'eve',
      path: '/',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    await waitFor(() => expect(history.location.pathname).toBe('/overview'));
  });

  it('is each role’s own dashboard when the product asks for them', async () => {
    const example = modelOf('expense-claims.md');
    const model = { ...example, product: { ...example.product, dashboard: true } };
    const w = await world(model);
    await w.user('eve', ['employee']);
    await w.user('max', ['manager']);
    const network = dashboardNetwork([{ status: 404, body: {} }]);
    const employee = renderApp(w, { as: 'eve', path: '/', network });
    await waitFor(() => expect(employee.history.location.pathname).toBe('/my-figures'));
    employee.unmount();
    const manager = renderApp(w, { as: 'max', path: '/', network });
    await waitFor(() => expect(manager.history.location.pathname).toBe('/approval-figures'));
  });

  it('is never a generated dashboard unless the product asks for it', async () => {
    const w = await setUp(withDashboard({ generated: true }), { name: 'eve', roles: ['employee'] });
    const { history } = renderApp(w, {
      as: 'eve',
      path: '/',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    await waitFor(() => expect(history.location.pathname).toBe('/my-claims'));
  });

  it('is the first entry of the navigation when the dashboard comes later and the product does not ask', async () => {
    const w = await setUp(withDashboard({ first: false }), { name: 'eve', roles: ['employee'] });
    const { history } = renderApp(w, {
      as: 'eve',
      path: '/',
      network: dashboardNetwork([{ status: 200, body: FIGURES }]),
    });
    await waitFor(() => expect(history.location.pathname).toBe('/my-claims'));
  });
});
