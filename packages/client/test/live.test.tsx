import {
  EVENT_CURSOR_HEADER,
  EVENT_SINCE_PARAM,
  type RecordChangeEvent,
  type RecordChangeKind,
  olderEventCursor,
} from '@ninefold/model';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LiveNews, listenLive } from '../src/live/live-bus';
import { FakeStreams } from './fake-event-source';
import { type World, openUserMenu, renderApp, world } from './harness';

type Json = Record<string, unknown>;

/**
 * Live changes in the app (decision 0060), on expense claims: Dir and Leo (directors) and two admins watch
 * pages while Ann (an employee) and the other admin change records through the API. The stream is a
 * fake the test drives with events in the contract's shape, each sent after the real change it
 * names, so that what the page reads again is the server's real data.
 */
let w: World;

beforeAll(async () => {
  w = await world('expense-claims.md');
  for (const [name, roles] of [
    ['ann', ['employee']],
    ['dir', ['director']],
    // signs out: the session ends on the server too
    ['leo', ['director']],
    ['max', ['director']],
    ['adm', ['admin']],
    ['ada', ['admin']],
  ] as const)
    await w.user(name, roles);
}, 60_000);

let made = 0;

/** A draft claim of Ann's, as the API answers it. */
async function claim(title = `Claim ${++made}`, values: Json = {}): Promise<Json> {
  const created = await w.api('ann', 'POST', '/api/claims', {
    title,
    category: 'travel',
    amount: '18.50',
    spentOn: '2026-02-01',
    ...values,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** A change through the API as a user, with the version it is based on; the record after it. */
async function change(who: string, path: string, record: Json, values: Json): Promise<Json> {
  const changed = await w.api(who, 'PATCH', `${path}/${String(record['id'])}`, values, {
    'if-match': `"${String(record['version'])}"`,
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return changed.body;
}

/** The event the server sends for a change, made from the record the API answered. */
function event(entity: string, record: Json, kind: RecordChangeKind): RecordChangeEvent {
  return { entity, id: String(record['id']), kind, transition: null, version: Number(record['version']) };
}

/** Renders the app as a user with a fake stream, once the app has opened (and connected) it. */
async function live(as: string, path: string) {
  const streams = new FakeStreams();
  const rendered = renderApp(w, { as, path, streams });
  await waitFor(() => expect(streams.opened).toHaveLength(1));
  streams.current.connect();
  return { ...rendered, streams };
}

/** The first cell of every row of a list's table, in order. */
function titles(name: string): string[] {
  const rows = within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);
  return rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

describe('the subscription', () => {
  it('is one stream for the signed-in app, at the events path, kept across pages and closed on sign-out', async () => {
    const { user, streams } = await live('leo', '/claims');
    expect(new URL(streams.current.url, 'http://app.test').pathname).toBe('/api/events');
    await screen.findByRole('heading', { level: 1, name: 'All claims' });
    await user.click(screen.getByRole('link', { name: 'Departments' }));
    await screen.findByRole('heading', { level: 1, name: 'Departments' });
    expect(streams.opened).toHaveLength(1);
    expect(streams.current.closed).toBe(false);

    await openUserMenu(user, 'leo');
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(streams.current.closed).toBe(true));
    expect(streams.opened).toHaveLength(1);
  });

  it('opens no stream when the spec says `calls.realtime: false`', async () => {
    // the stream's code is loaded by the test before: it would mount at once with the user's menu
    const streams = new FakeStreams();
    const model = { ...w.model, calls: { ...w.model.calls, realtime: false } };
    const { user } = renderApp(w, { as: 'dir', path: '/claims', streams, model });
    await screen.findByRole('heading', { level: 1, name: 'All claims' });
    await openUserMenu(user, 'dir');
    expect(streams.opened).toEqual([]);
  });

  it('opens a new stream after a refusal, and reads again what is shown once it is open', async () => {
    const record = await claim();
    const { streams } = await live('dir', `/claims/${String(record['id'])}`);
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    streams.current.refuse();
    await change('ann', '/api/claims', record, { title: 'Taxi, renamed while the stream was down' });
    // the browser gives up on a refused stream; the app opens another after EVENT_RETRY_MS
    await waitFor(() => expect(streams.opened).toHaveLength(2), { timeout: 5000 });
    expect(streams.opened[0]?.closed).toBe(false);
    streams.current.connect();
    await screen.findByRole('heading', { level: 1, name: 'Taxi, renamed while the stream was down' });
  });
});

describe('a refused stream', () => {
  it('asks for the session again: a session ended elsewhere signs the app out', async () => {
    const { streams, history } = await live('max', '/claims');
    await screen.findByRole('heading', { level: 1, name: 'All claims' });
    expect((await w.api('max', 'DELETE', '/api/session')).status).toBe(204);
    streams.current.refuse();
    await waitFor(() => expect(history.location.pathname).toBe('/sign-in'));
    await waitFor(() => expect(streams.current.closed).toBe(true));
  });
});

describe('a detail page', () => {
  it('opens its stream from the cursor of the read it shows, and does not read the record again', async () => {
    const record = await claim();
    const path = `/api/claims/${String(record['id'])}`;
    const cursors: string[] = [];
    let reads = 0;
    const streams = new FakeStreams();
    renderApp(w, {
      as: 'dir',
      path: `/claims/${String(record['id'])}`,
      streams,
      network: (fetch) => async (input, init) => {
        const answer = await fetch(input, init);
        if (new URL(String(input), 'http://app.test').pathname === path) reads += 1;
        const cursor = answer.headers.get(EVENT_CURSOR_HEADER);
        if (cursor !== null) cursors.push(cursor);
        return answer;
      },
    });
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    await waitFor(() => expect(streams.opened).toHaveLength(1));
    // the oldest of the cursors its reads were answered with: the server replays from there
    const since = new URL(streams.current.url, 'http://app.test').searchParams.get(EVENT_SINCE_PARAM);
    expect(cursors.length).toBeGreaterThan(0);
    expect(since).toBe(cursors.reduce(olderEventCursor));
    const before = reads;
    expect(before).toBeGreaterThan(0);

    // a change between the read and the stream: the server replays it, and only that is read
    const changed = await change('ann', '/api/claims', record, { title: 'Changed before the stream opened' });
    streams.current.connect();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads).toBe(before);
    streams.current.record(event('Claim', changed, 'updated'));
    await screen.findByRole('heading', { level: 1, name: 'Changed before the stream opened' });
    expect(reads).toBe(before + 1);
  });

  it('without a cursor (a server that sends none), reads the record again once the stream is open', async () => {
    const record = await claim();
    const streams = new FakeStreams();
    renderApp(w, {
      as: 'dir',
      path: `/claims/${String(record['id'])}`,
      streams,
      network: (fetch) => async (input, init) => {
        const answer = await fetch(input, init);
        const headers = new Headers(answer.headers);
        headers.delete(EVENT_CURSOR_HEADER);
        return new Response(answer.body, { status: answer.status, headers });
      },
    });
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    // no read came with a cursor: the stream waits for one a moment, then opens without
    await waitFor(() => expect(streams.opened).toHaveLength(1), { timeout: 5000 });
    expect(streams.current.url).toBe('/api/events');
    await change('ann', '/api/claims', record, { title: 'Changed before the stream opened' });
    streams.current.connect();
    await screen.findByRole('heading', { level: 1, name: 'Changed before the stream opened' });
  });

  it('shows the record as someone else changed it', async () => {
    const record = await claim();
    const { streams } = await live('dir', `/claims/${String(record['id'])}`);
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    const changed = await change('ann', '/api/claims', record, { title: 'Train to Lyon' });
    streams.current.record(event('Claim', changed, 'updated'));
    await screen.findByRole('heading', { level: 1, name: 'Train to Lyon' });
    expect(screen.getByTestId('live-note')).toHaveTextContent('Someone else changed this claim just now.');
    expect(screen.getByTestId('live-note')).toHaveAttribute('role', 'status');
  });

  it('reads the record again when the browser comes back online', async () => {
    const record = await claim();
    await live('dir', `/claims/${String(record['id'])}`);
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    await change('ann', '/api/claims', record, { title: 'Changed while offline' });
    window.dispatchEvent(new Event('online'));
    await screen.findByRole('heading', { level: 1, name: 'Changed while offline' });
  });

  it('does not say that the user’s own transition was someone else’s', async () => {
    const record = await claim();
    const submitted = await w.api(
      'ann',
      'POST',
      `/api/claims/${String(record['id'])}/transitions/submit`,
      {},
      {
        'if-match': `"${String(record['version'])}"`,
      },
    );
    expect(submitted.status).toBe(200);
    const { user, streams, parts } = await live('dir', `/claims/${String(record['id'])}`);
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    const heard: LiveNews[] = [];
    const stop = listenLive(parts.queryClient, (news) => heard.push(news));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(document.querySelector('[data-state]')).toHaveAttribute('data-state', 'approved'),
    );
    const approved = (await w.api('dir', 'GET', `/api/claims/${String(record['id'])}`)).body;
    streams.current.record({ ...event('Claim', approved, 'transition'), transition: 'approve' });
    await waitFor(() => expect(heard).toHaveLength(1));
    stop();
    expect(heard[0]).toMatchObject({ resync: false, changes: [{ id: record['id'], known: true }] });
    expect(screen.getByTestId('live-note')).toBeEmptyDOMElement();
  });

  it('reads everything again on `resync`, and ignores events that are not the contract’s', async () => {
    const record = await claim();
    const { streams } = await live('dir', `/claims/${String(record['id'])}`);
    await screen.findByRole('heading', { level: 1, name: String(record['title']) });
    await change('ann', '/api/claims', record, { title: 'Hotel in Porto' });
    streams.current.emit('record', 'not json');
    streams.current.emit('record', JSON.stringify({ entity: 'Claim', id: 7 }));
    streams.current.resync();
    await screen.findByRole('heading', { level: 1, name: 'Hotel in Porto' });
  });
});

describe('an edit form', () => {
  let made = 0;
  async function department(): Promise<Json> {
    made++;
    const created = await w.api('ada', 'POST', '/api/departments', {
      name: `Department ${made}`,
      code: `D${'ABCDEFGHIJ'[made] ?? 'Z'}`,
      costCentre: 2000 + made,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }
  const nameInput = () => screen.getByRole('textbox', { name: /^Name/ });

  it('without changes follows the record as someone else changed it', async () => {
    const record = await department();
    const { streams } = await live('adm', `/departments/${String(record['id'])}/edit`);
    await waitFor(() => expect(nameInput()).toHaveValue(String(record['name'])));
    const changed = await change('ada', '/api/departments', record, { name: 'Renamed by Ada' });
    streams.current.record(event('Department', changed, 'updated'));
    await waitFor(() => expect(nameInput()).toHaveValue('Renamed by Ada'));
    expect(screen.getByTestId('changed-elsewhere')).toBeEmptyDOMElement();
  });

  it('with unsaved changes says so; keeping them, the save meets the version check', async () => {
    const record = await department();
    const { user, streams } = await live('adm', `/departments/${String(record['id'])}/edit`);
    await waitFor(() => expect(nameInput()).toHaveValue(String(record['name'])));
    await user.clear(nameInput());
    await user.type(nameInput(), 'Adm’s name');
    const changed = await change('ada', '/api/departments', record, { costCentre: 9001 });
    streams.current.record(event('Department', changed, 'updated'));

    const notice = within(screen.getByTestId('changed-elsewhere'));
    await notice.findByText(/Someone else changed this department while you were editing it/);
    expect(screen.getByTestId('changed-elsewhere')).toHaveAttribute('role', 'status');
    expect(nameInput()).toHaveValue('Adm’s name');
    // reachable by keyboard: back from the first field
    nameInput().focus();
    await user.tab({ shift: true });
    expect(notice.getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('changed-elsewhere')).toBeEmptyDOMElement();
    expect(nameInput()).toHaveValue('Adm’s name');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const conflict = await screen.findByRole('alert');
    expect(conflict).toHaveAttribute('data-error-code', 'E_CONFLICT');
    const stored = await w.api('ada', 'GET', `/api/departments/${String(record['id'])}`);
    expect(stored.body).toMatchObject({ name: record['name'], costCentre: 9001 });
  });

  it('with unsaved changes reloads the record on request, losing them', async () => {
    const record = await department();
    const { user, streams } = await live('adm', `/departments/${String(record['id'])}/edit`);
    await waitFor(() => expect(nameInput()).toHaveValue(String(record['name'])));
    await user.type(nameInput(), ' (draft)');
    const changed = await change('ada', '/api/departments', record, { name: 'Chosen by Ada' });
    streams.current.record(event('Department', changed, 'updated'));
    const notice = within(screen.getByTestId('changed-elsewhere'));
    await user.click(await notice.findByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(nameInput()).toHaveValue('Chosen by Ada'));
    expect(screen.getByTestId('changed-elsewhere')).toBeEmptyDOMElement();

    // based on Ada's version now: a save goes through
    await user.type(nameInput(), ' and Adm');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByRole('heading', { level: 1, name: 'Chosen by Ada and Adm' });
  });
});

describe('what counts records', () => {
  const card = (title: string) => {
    const section = screen.getByRole('heading', { name: title, level: 2 }).closest('section');
    if (section === null) throw new Error(`no card ${title}`);
    return within(section);
  };

  it('a dashboard reads its figures again', async () => {
    await claim('Counted claim');
    const { streams } = await live('adm', '/finance-figures');
    const figure = () => card('Average claim').getByRole('link').textContent;
    await waitFor(() => expect(figure()).toMatch(/\d/));
    const before = figure();
    const big = await claim('A smaller claim', { amount: '2.00' });
    streams.current.record(event('Claim', big, 'created'));
    await waitFor(() => expect(figure()).not.toBe(before));
  });

  it('a related section shows a new record of its parent', async () => {
    const made = await w.api('ada', 'POST', '/api/departments', {
      name: 'Live ops',
      code: 'LOPS',
      costCentre: 4242,
    });
    expect(made.status).toBe(201);
    const { streams } = await live('adm', `/departments/${String(made.body['id'])}`);
    const section = await screen.findByRole('region', { name: 'Claims' });
    await within(section).findByTestId('related-empty');
    const added = await claim('Claim of Live ops', { department: made.body['id'] });
    streams.current.record(event('Claim', added, 'created'));
    await within(section).findByRole('link', { name: 'Claim of Live ops' });
  });
});

describe('a list', () => {
  it('holds records created by others behind “N new — show”, and brings them in', async () => {
    const first = await claim('Older claim');
    const { user, streams } = await live('dir', '/claims');
    await screen.findByRole('table', { name: 'All claims' });
    await waitFor(() => expect(titles('All claims')).toContain('Older claim'));
    const before = titles('All claims');

    const a = await claim('New claim A');
    const b = await claim('New claim B');
    streams.current.record(event('Claim', a, 'created'));
    streams.current.record(event('Claim', b, 'created'));
    const show = await within(screen.getByTestId('new-rows')).findByRole('button', {
      name: '2 new claims — show',
    });
    expect(screen.getByTestId('new-rows')).toHaveAttribute('role', 'status');
    // the rows stay where they were until the user asks
    expect(titles('All claims')).toEqual(before);

    await user.click(show);
    await waitFor(() => expect(titles('All claims').slice(0, 2)).toEqual(['New claim B', 'New claim A']));
    expect(titles('All claims').slice(2)).toEqual(before);
    expect(screen.getByTestId('new-rows')).toBeEmptyDOMElement();
    expect(screen.getByRole('heading', { level: 1, name: 'All claims' })).toHaveFocus();
    expect(first['id']).toBeDefined();
  });

  it('shows the held records when the user sorts the list otherwise, and after coming back', async () => {
    await claim('Before the sort');
    const { user, history, streams } = await live('dir', '/claims');
    await waitFor(() => expect(titles('All claims')).toContain('Before the sort'));
    const added = await claim('Held until the sort');
    streams.current.record(event('Claim', added, 'created'));
    await within(screen.getByTestId('new-rows')).findByRole('button', { name: '1 new claim — show' });
    expect(titles('All claims')).not.toContain('Held until the sort');

    await user.click(screen.getByRole('button', { name: 'Amount' }));
    await waitFor(() => expect(titles('All claims')).toContain('Held until the sort'));
    expect(screen.getByTestId('new-rows')).toBeEmptyDOMElement();
    await act(() => history.go(-1));
    await waitFor(() => expect(new URLSearchParams(history.location.search).get('sort')).toBeNull());
    await waitFor(() => expect(titles('All claims')).toContain('Held until the sort'));
    expect(screen.getByTestId('new-rows')).toBeEmptyDOMElement();
  });

  it('keeps a row it shows when the stream tells of its create again (at least once)', async () => {
    const read = await claim('Read with the list');
    const { streams } = await live('dir', '/claims');
    await waitFor(() => expect(titles('All claims')).toContain('Read with the list'));
    const added = await claim('Created after the read');
    // a stream opened from the cursor of the list's read may repeat a create the read had
    streams.current.record(event('Claim', read, 'created'));
    streams.current.record(event('Claim', added, 'created'));
    await within(screen.getByTestId('new-rows')).findByRole('button', { name: '1 new claim — show' });
    expect(titles('All claims')).toContain('Read with the list');
    expect(titles('All claims')).not.toContain('Created after the read');
  });

  it('shows a changed row in place and lets a deleted one go', async () => {
    const kept = await claim('Row to rename');
    const gone = await claim('Row to delete');
    const { streams } = await live('dir', '/claims');
    await waitFor(() => expect(titles('All claims')).toContain('Row to rename'));
    const index = titles('All claims').indexOf('Row to rename');

    const renamed = await change('ann', '/api/claims', kept, { title: 'Row renamed by Ann' });
    streams.current.record(event('Claim', renamed, 'updated'));
    await waitFor(() => expect(titles('All claims')[index]).toBe('Row renamed by Ann'));

    const deleted = await w.api('adm', 'DELETE', `/api/claims/${String(gone['id'])}`, undefined, {
      'if-match': `"${String(gone['version'])}"`,
    });
    expect(deleted.status).toBe(204);
    streams.current.record(event('Claim', gone, 'deleted'));
    await waitFor(() => expect(titles('All claims')).not.toContain('Row to delete'));
    expect(titles('All claims')).toContain('Row renamed by Ann');
  });

  it('does not announce the user’s own new record as someone else’s', async () => {
    const { user, streams } = await live('dir', '/claims/new');
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Dir’s own claim');
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '12');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    await screen.findByRole('heading', { level: 1, name: 'Dir’s own claim' });
    await user.click(screen.getByRole('link', { name: 'All claims' }));
    await waitFor(() => expect(titles('All claims')).toContain('Dir’s own claim'));

    const own = (await w.api('dir', 'GET', '/api/claims?limit=100')).body['data'] as Json[];
    const mine = own.find((c) => c['title'] === 'Dir’s own claim') ?? {};
    const others = await claim('Ann’s claim meanwhile');
    streams.current.record(event('Claim', mine, 'created'));
    streams.current.record(event('Claim', others, 'created'));
    await within(screen.getByTestId('new-rows')).findByRole('button', { name: '1 new claim — show' });
    expect(titles('All claims')).not.toContain('Ann’s claim meanwhile');
  });
});
