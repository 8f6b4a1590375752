/**
 * The offline queue as the user meets it, the whole app against the real server in-process: a
 * change made offline is kept on the device and said to be, shown as pending where its record is,
 * sent once when the connection returns; a change the server refuses is shown with its catalogue
 * message, to fix or discard; one user's changes are never sent under another's session.
 */
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { queueKey, readQueue } from '../src/offline/queue';
import { type World, renderApp, world } from './harness';

configure({ asyncUtilTimeout: 10_000 });

const CLAIM = { title: 'Taxi', category: 'travel', amount: '12.00', spentOn: '2026-02-27' };

/**
 * A network the test takes away and gives back, as the browser does: requests fail before they
 * reach the server, `navigator.onLine` says so, and `offline` / `online` are fired.
 */
function switchableNetwork() {
  let offline = false;
  const writes: string[] = [];
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !offline });
  return {
    writes,
    network:
      (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) => {
        if (offline) throw new TypeError('Failed to fetch');
        if (init?.method !== undefined && init.method !== 'GET')
          writes.push(`${init.method} ${String(input)}`);
        return fetch(input, init);
      },
    goOffline: () =>
      act(() => {
        offline = true;
        window.dispatchEvent(new Event('offline'));
      }),
    goOnline: () =>
      act(() => {
        offline = false;
        window.dispatchEvent(new Event('online'));
      }),
  };
}

afterEach(() => {
  localStorage.clear();
  // back to jsdom's own (always online)
  delete (navigator as { onLine?: boolean }).onLine;
});

async function claimsWorld(): Promise<World> {
  const w = await world('expense-claims.md');
  await w.user('ann', ['employee']);
  await w.user('bob', ['employee']);
  return w;
}

const status = () => screen.getByTestId('offline-status');
const textbox = (name: RegExp | string) => screen.getByRole('textbox', { name });

async function newClaim(w: World, as: string, title: string) {
  const made = await w.api(as, 'POST', '/api/claims', { ...CLAIM, title });
  return String(made.body['id']);
}

describe('the offline queue in the app', () => {
  it('keeps a change made offline, says so, marks the record pending, and sends it once when back online', async () => {
    const w = await claimsWorld();
    const id = await newClaim(w, 'ann', 'Taxi');
    const net = switchableNetwork();
    const { user, history } = renderApp(w, { as: 'ann', path: `/claims/${id}/edit`, network: net.network });
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    net.goOffline();
    await waitFor(() => expect(status()).toHaveTextContent('Offline.'));

    await user.clear(title);
    await user.type(title, 'Taxi home');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const notice = (await screen.findByText(/your change is saved on this device/)).closest(
      '[role="status"]',
    );
    expect(notice).not.toBeNull();
    expect(notice).toHaveAttribute('data-error-code', 'E_OFFLINE_QUEUED');
    expect(status()).toHaveTextContent('Offline. 1 change saved on this device, waiting to be sent.');
    expect(screen.getByRole('button', { name: /Show the changes on this device/ })).toHaveTextContent(
      '1 waiting',
    );
    expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['title']).toBe('Taxi');

    // the record says the change waits, and holds its other actions until it is sent
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(history.location.pathname).toBe(`/claims/${id}`));
    const pending = await screen.findByTestId('record-pending');
    expect(pending).toHaveTextContent('Changes to claim “Taxi” (Title)');
    expect(pending).toHaveTextContent('Waiting to be sent');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();

    net.goOnline();
    await waitFor(async () =>
      expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['title']).toBe('Taxi home'),
    );
    await waitFor(() => expect(screen.queryByTestId('record-pending')).toBeNull());
    expect(status()).toHaveTextContent('');
    expect(await screen.findByRole('heading', { level: 1, name: 'Taxi home' })).toBeInTheDocument();
    expect(net.writes.filter((wr) => wr.startsWith('PATCH'))).toHaveLength(1);
    const history2 = await w.api('ann', 'GET', `/api/claims/${id}/history`);
    expect((history2.body['data'] as { action: string }[]).filter((e) => e.action === 'update')).toHaveLength(
      1,
    );
  }, 60_000);

  it('holds a transition fired offline, marks its record pending in its list, and fires it once back online', async () => {
    const w = await claimsWorld();
    const id = await newClaim(w, 'ann', 'Conference fee');
    const net = switchableNetwork();
    const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims', network: net.network });
    await user.click(await screen.findByRole('link', { name: 'Conference fee' }));
    const actions = within(await screen.findByRole('group', { name: 'Actions' }));
    net.goOffline();
    await user.click(actions.getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Submit' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      screen.getByText(/^Submit: The server could not be reached: your change is saved/),
    ).toHaveAttribute('role', 'status');
    expect(await screen.findByTestId('record-pending')).toHaveTextContent('Submit: claim “Conference fee”');
    // decided on a state the server no longer has, the record's other actions wait
    expect(actions.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    expect(actions.getByRole('button', { name: 'Delete' })).toBeDisabled();

    await act(() => history.go(-1));
    const row = (await screen.findByRole('link', { name: 'Conference fee' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(within(row).getByText('Draft')).toBeInTheDocument();

    net.goOnline();
    await waitFor(async () =>
      expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['state']).toBe('submitted'),
    );
    await waitFor(() => expect(screen.queryByText('Pending')).toBeNull());
    const entries = (await w.api('ann', 'GET', `/api/claims/${id}/history`)).body['data'] as {
      action: string;
    }[];
    expect(entries.filter((e) => e.action === 'transition')).toHaveLength(1);
  }, 60_000);

  it('shows a create made offline in its list as not sent yet, and makes one record of it', async () => {
    const w = await claimsWorld();
    const net = switchableNetwork();
    const { user } = renderApp(w, { as: 'ann', path: '/claims/new', network: net.network });
    await screen.findByRole('textbox', { name: /^Title/ });
    net.goOffline();
    await user.type(textbox(/^Title/), 'Night bus home');
    await user.type(textbox(/^Amount/), '7.5');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    expect(await screen.findByText(/your change is saved on this device/)).toBeInTheDocument();
    // the same values sent again are the same create: still one waiting
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    await screen.findByText(/your change is saved on this device/);
    expect(readQueue(queueKey(w.model, w.users['ann']!.id))).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    const section = await screen.findByRole('region', { name: 'Not sent yet' });
    expect(section).toHaveTextContent('New claim “Night bus home”');
    expect(section).toHaveTextContent('Waiting to be sent');

    net.goOnline();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Not sent yet' })).toBeNull());
    const rows = (await w.api('ann', 'GET', '/api/claims?limit=100')).body['data'] as { title: string }[];
    expect(rows.map((r) => r.title)).toEqual(['Night bus home']);
    expect(await screen.findByRole('link', { name: 'Night bus home' })).toBeInTheDocument();
  }, 60_000);

  it('queues a create whose answers were all lost, and its replay makes no second record', async () => {
    const w = await claimsWorld();
    let lose = true;
    const { user } = renderApp(w, {
      as: 'ann',
      path: '/claims/new',
      // the server does the create, but the answer never comes back
      network: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        if (lose && init?.method === 'POST' && String(input).endsWith('/api/claims'))
          throw new TypeError('Failed to fetch');
        return response;
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Night bus home');
    await user.type(textbox(/^Amount/), '7.5');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    expect(await screen.findByText(/your change is saved on this device/)).toBeInTheDocument();
    const made = async () => (await w.api('ann', 'GET', '/api/claims?limit=100')).body['data'] as unknown[];
    expect(await made()).toHaveLength(1);

    lose = false;
    await act(() => window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(readQueue(queueKey(w.model, w.users['ann']!.id))).toEqual([]));
    expect(await made()).toHaveLength(1);
  }, 60_000);

  it('shows a change the server refused on replay with its catalogue message, to fix and send or discard', async () => {
    const w = await claimsWorld();
    const id = await newClaim(w, 'ann', 'Hotel');
    const net = switchableNetwork();
    const { user, history } = renderApp(w, { as: 'ann', path: `/claims/${id}/edit`, network: net.network });
    await screen.findByRole('textbox', { name: /^Title/ });
    net.goOffline();
    await user.type(textbox('Merchant'), 'Hotel Lux');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText(/your change is saved on this device/);

    // meanwhile, on another device, the record changes: the queued change is based on a version gone
    await w.api('ann', 'PATCH', `/api/claims/${id}`, { title: 'Hotel, two nights' }, { 'if-match': '"1"' });
    net.goOnline();
    const button = await screen.findByRole('button', { name: /1 change not sent: the server refused it/ });
    expect(button).toHaveTextContent('1 not sent');
    await user.click(button);
    const drawer = await screen.findByRole('dialog', { name: 'Changes on this device' });
    const refused = within(drawer).getByText(/Someone else changed this record since you opened it/);
    expect(refused).toHaveAttribute('data-error-code', 'E_CONFLICT');

    // fixing it: the record as it is now, with the user's change on top, sent against the new version
    await user.click(within(drawer).getByRole('button', { name: 'Fix and send' }));
    await waitFor(() => expect(textbox(/^Title/)).toHaveValue('Hotel, two nights'));
    expect(textbox('Merchant')).toHaveValue('Hotel Lux');
    expect(screen.getByRole('alert')).toHaveTextContent('Someone else changed this record');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(history.location.pathname).toBe(`/claims/${id}`));
    const now = await w.api('ann', 'GET', `/api/claims/${id}`);
    expect(now.body).toMatchObject({ title: 'Hotel, two nights', merchant: 'Hotel Lux', version: 3 });
    expect(readQueue(queueKey(w.model, w.users['ann']!.id))).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('button', { name: /not sent/ })).toBeNull());
  }, 60_000);

  it('discards a waiting change only after asking, and never sends it', async () => {
    const w = await claimsWorld();
    const net = switchableNetwork();
    const { user } = renderApp(w, { as: 'ann', path: '/claims/new', network: net.network });
    await screen.findByRole('textbox', { name: /^Title/ });
    net.goOffline();
    await user.type(textbox(/^Title/), 'Changed my mind');
    await user.type(textbox(/^Amount/), '3');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    await screen.findByText(/your change is saved on this device/);

    await user.click(screen.getByRole('button', { name: /Show the changes on this device/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Changes on this device' });
    await user.click(within(drawer).getByRole('button', { name: 'Discard: New claim “Changed my mind”' }));
    const ask = within(drawer).getByRole('group', { name: /Discard New claim/ });
    expect(readQueue(queueKey(w.model, w.users['ann']!.id))).toHaveLength(1);
    await user.click(within(ask).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(within(drawer).getByText('Nothing waits to be sent.')).toBeInTheDocument());

    net.goOnline();
    await waitFor(() => expect(status()).toHaveTextContent(''));
    expect(net.writes).toEqual([]);
    expect((await w.api('ann', 'GET', '/api/claims?limit=100')).body['data']).toEqual([]);
  }, 60_000);

  it('keeps a user’s changes for them: signing out keeps them, another user never sends them', async () => {
    const w = await claimsWorld();
    const net = switchableNetwork();
    const annQueue = queueKey(w.model, w.users['ann']!.id);
    const ann = renderApp(w, { as: 'ann', path: '/claims/new', network: net.network });
    await screen.findByRole('textbox', { name: /^Title/ });
    net.goOffline();
    await ann.user.type(textbox(/^Title/), 'Ann’s claim');
    await ann.user.type(textbox(/^Amount/), '9');
    await ann.user.click(screen.getByRole('button', { name: 'Create claim' }));
    await screen.findByText(/your change is saved on this device/);
    await ann.user.click(screen.getByRole('button', { name: 'Done' }));

    // the menu says what signing out does with it, and signing out (offline) keeps it
    await ann.user.click(await screen.findByRole('button', { name: 'Account: ann' }));
    expect(await screen.findByTestId('kept-on-sign-out')).toHaveTextContent(
      '1 change is not sent yet: signing out keeps it on this device, sent when you sign in again.',
    );
    await ann.user.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(ann.history.location.pathname).toBe('/sign-in'));
    net.goOnline();
    expect(readQueue(annQueue)).toHaveLength(1);
    ann.unmount();

    // another user on the same device: their session never sends it
    const bob = renderApp(w, { as: 'bob', path: '/my-claims', network: net.network });
    await screen.findByRole('heading', { level: 1, name: 'My claims' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(screen.queryByRole('region', { name: 'Not sent yet' })).toBeNull();
    expect(net.writes).toEqual([]);
    expect(readQueue(annQueue)).toHaveLength(1);
    bob.unmount();

    // ann again: sent under her session
    renderApp(w, { as: 'ann', path: '/my-claims', network: net.network });
    await waitFor(() => expect(readQueue(annQueue)).toEqual([]));
    const mine = (await w.api('ann', 'GET', '/api/claims?limit=100')).body['data'] as { createdBy: string }[];
    expect(mine.map((c) => c.createdBy)).toEqual([w.users['ann']!.id]);
    expect((await w.api('bob', 'GET', '/api/claims?limit=100')).body['data']).toEqual([]);
  }, 60_000);
});
