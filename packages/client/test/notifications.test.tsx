/**
 * Notifications in the app against the real server and its job runner: the bell counts what
 * another user's transition told this one, refreshes on focus, opens a notification at its record
 * (marking it read), marks all read; the settings page keeps a switch off and shows a mandatory one
 * on and disabled; the admin reads the mail outbox with its HTML kept out of the app's page; and a
 * spec without notifications has no bell.
 */
import { type Model, type Notification } from '@ninefold/model';
import { runProductJobs, specModel } from '@ninefold/testkit';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type World, modelOf, openUserMenu, renderApp, world } from './harness';

const DESK = `
product: { name: Desk }
entities:
  Ticket:
    fields:
      subject: { type: string, required: true }
      requester: { type: ref, to: User }
roles:
  agent:
    Ticket: true
    User: { read: true }
  customer:
    Ticket: { read: "requester == user.id", create: true }
    User: { read: true, fields: { read: [name] } }
  admin:
    Ticket: { read: true }
    User:
      read: true
      update: true
      fields: { write: [name, email, roles, disabled] }
states:
  Ticket:
    initial: open
    transitions:
      answer: { from: open, to: answered, roles: [agent] }
`;

const answered: Notification = {
  name: 'ticket-answered',
  on: [{ entity: 'Ticket', kind: 'transition', transition: 'answer', name: 'Ticket.answer' }],
  to: [{ kind: 'user', field: 'requester' }],
  channels: ['app', 'email'],
  subject: 'Your ticket “{subject}” was answered',
  message: '{user.name} answered your ticket.',
  mandatory: false,
};

const opened: Notification = {
  name: 'ticket-opened',
  on: [{ entity: 'Ticket', kind: 'created', transition: null, name: 'Ticket.created' }],
  to: [{ kind: 'role', role: 'agent' }],
  channels: ['app'],
  subject: 'New ticket: {subject}',
  message: 'A ticket was opened.',
  mandatory: true,
};

function deskModel(): Model {
  return { ...specModel(DESK), notifications: { [answered.name]: answered, [opened.name]: opened } };
}

/** A ticket of Cy's, answered by Ann; the product's jobs run, so Cy is told. */
async function answeredTicket(w: World, subject: string) {
  const ticket = await w.api('ann', 'POST', '/api/tickets', { subject, requester: w.users['cy']!.id });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  const id = String(ticket.body['id']);
  const fired = await w.api(
    'ann',
    'POST',
    `/api/tickets/${id}/transitions/answer`,
    {},
    {
      'if-match': `"${String(ticket.body['version'])}"`,
    },
  );
  expect(fired.status, JSON.stringify(fired.body)).toBe(200);
  while ((await runProductJobs(w.server)) > 0);
  return id;
}

async function deskWorld() {
  const w = await world(deskModel());
  await w.user('ann', ['agent']);
  await w.user('cy', ['customer']);
  await w.user('ada', ['admin']);
  return w;
}

describe('notifications in the app', () => {
  it('counts what another user told this one, opens it at its record, and refreshes on focus', async () => {
    const w = await deskWorld();
    const first = await answeredTicket(w, 'Printer on fire');
    const { user, history } = renderApp(w, { as: 'cy', path: '/' });

    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const item = within(dialog).getByRole('link', { name: /Your ticket “Printer on fire” was answered/ });
    expect(item).toHaveTextContent('Unread:');
    expect(item).toHaveTextContent('ann answered your ticket.');
    await user.click(item);

    const detail = w.model.screens.find((s) => s.entity === 'Ticket' && s.kind === 'detail')!;
    expect(history.location.pathname).toBe(detail.path.replace(':id', first));
    await screen.findByRole('button', { name: 'Notifications' });
    const page = await w.api('cy', 'GET', '/api/notifications');
    expect((page.body['items'] as { readAt: string | null }[])[0]?.readAt).not.toBeNull();
    expect(page.body['unread']).toBe(0);

    // another arrives while the app is open: coming back to the window shows it
    await answeredTicket(w, 'Screen flickers');
    await act(() => window.dispatchEvent(new Event('focus')));
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
  });

  it('asks again after the user’s own write', async () => {
    const w = await deskWorld();
    const asked: string[] = [];
    const { user, history } = renderApp(w, {
      as: 'cy',
      path: w.model.screens.find((s) => s.entity === 'Ticket' && s.kind === 'create')!.path,
      network: (fetch) => (input, init) => {
        const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
        if (url.pathname === '/api/notifications') asked.push(url.search);
        return fetch(input, init);
      },
    });
    await screen.findByRole('button', { name: 'Notifications' });
    const before = asked.length;
    await user.type(await screen.findByRole('textbox', { name: /^Subject/ }), 'Keyboard sticks');
    await user.click(screen.getByRole('button', { name: /^Create/ }));
    await waitFor(() => expect(history.location.pathname).toMatch(/^\/tickets\/[^/]+$/));
    await waitFor(() => expect(asked.length).toBeGreaterThan(before));
  });

  it('lists the newest first and marks all read', async () => {
    const w = await deskWorld();
    await answeredTicket(w, 'One');
    await answeredTicket(w, 'Two');
    const { user } = renderApp(w, { as: 'cy', path: '/' });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Your ticket “Two” was answered'),
      expect.stringContaining('Your ticket “One” was answered'),
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect((await w.api('cy', 'GET', '/api/notifications')).body['unread']).toBe(0);
  });

  it('opens a notification of a record without a detail page in place, marking it read', async () => {
    const w = await deskWorld();
    await answeredTicket(w, 'No page');
    // the app's model without the ticket's detail screen: the notification has nowhere to link to
    const model = {
      ...w.model,
      screens: w.model.screens.filter((s) => !(s.entity === 'Ticket' && s.kind === 'detail')),
    };
    const { user, history } = renderApp(w, { as: 'cy', path: '/', model });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).queryByRole('link')).toBeNull();
    const where = history.location.pathname;
    await user.click(within(dialog).getByRole('button', { name: /Your ticket “No page” was answered/ }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(history.location.pathname).toBe(where);
    expect((await w.api('cy', 'GET', '/api/notifications')).body['unread']).toBe(0);
  });

  it('keeps a switched-off notification off, and shows a mandatory one on and disabled', async () => {
    const w = await deskWorld();
    const first = renderApp(w, { as: 'ann', path: '/' });
    await openUserMenu(first.user, 'ann');
    await first.user.click(await screen.findByRole('menuitem', { name: 'Notification settings' }));
    expect(await screen.findByRole('heading', { name: 'Notification settings' })).toBeInTheDocument();
    const mandatory = await screen.findByRole('switch', { name: /^Ticket opened/ });
    expect(mandatory).toBeChecked();
    expect(mandatory).toBeDisabled();
    expect(screen.getByText('Always sent')).toBeInTheDocument();
    const optional = screen.getByRole('switch', { name: 'Ticket answered' });
    expect(optional).toBeChecked();
    await first.user.click(optional);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Ticket answered' })).not.toBeChecked());
    first.unmount();

    // kept on the server: a new page shows it off
    renderApp(w, { as: 'ann', path: '/account/notifications' });
    const again = await screen.findByRole('switch', { name: 'Ticket answered' });
    await waitFor(() => expect(again).not.toBeChecked());
    const settings = await w.api('ann', 'GET', '/api/notifications/settings');
    expect(settings.body).toEqual([
      { notification: 'ticket-answered', enabled: false, mandatory: false },
      { notification: 'ticket-opened', enabled: true, mandatory: true },
    ]);
  });

  it('shows the admin the mail outbox, its HTML in a sandboxed frame and never in the page', async () => {
    const w = await deskWorld();
    await answeredTicket(w, '<img src=x onerror="window.hacked=1"> Broken');
    const { user } = renderApp(w, { as: 'ada', path: '/admin/mail' });
    const table = await screen.findByRole('table', { name: 'Mail outbox' });
    const subject = within(table).getByRole('button', { name: /was answered/ });
    expect(within(table).getByText('cy@example.com')).toBeInTheDocument();
    await user.click(subject);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('mail-text')).toHaveTextContent('ann answered your ticket.');
    const frame = within(dialog).getByTitle(/^HTML of/);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('ann answered your ticket.');
    // the record's hostile text is not an element of the app's page
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('shows no bell for a spec without notifications', async () => {
    const w = await world({ ...modelOf('expense-claims.md'), notifications: {} });
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await openUserMenu(user, 'ann');
    await screen.findByRole('menuitem', { name: 'Sign out' });
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Notification settings' })).toBeNull();
  });
});
