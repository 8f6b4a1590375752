/**
 * The admin area's webhook deliveries and mail outbox against the real server and a real receiver
 * (node:http on a free local port): a delivery the receiver refused shows with its answer, and
 * "Resend" sends it again, which the receiver then gets.
 */
import { type Model } from '@ninefold/model';
import { runProductJobs } from '@ninefold/testkit';
import { screen, waitFor, within } from '@testing-library/react';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { modelOf, openUserMenu, renderApp, world } from './harness';

/** The expense claims with a webhook, `accounting`, told of every new department. */
function hookedModel(): Model {
  const model = modelOf('expense-claims.md');
  const event = {
    entity: 'Department',
    kind: 'created',
    transition: null,
    name: 'Department.created',
  } as const;
  return {
    ...model,
    webhooks: {
      accounting: { name: 'accounting', on: [event], url: '${HOOK_URL}', secret: '${HOOK_SECRET}' },
    },
  };
}

/** A receiver that answers each request with the next status given (200 when none are left). */
async function startReceiver(statuses: number[]) {
  const received: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('noted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('the admin area: webhook deliveries', () => {
  it('shows a refused delivery with its answer, and sends it again on Resend', async () => {
    const w = await world(hookedModel());
    await w.user('ada', ['admin', 'employee']);
    const receiver = await startReceiver([503]);
    const env = {
      HOOK_URL: receiver.url,
      HOOK_SECRET: `whsec_${Buffer.from('a secret of the test, 32 bytes!!').toString('base64')}`,
      NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1',
    };
    const made = await w.api('ada', 'POST', '/api/departments', {
      name: 'Finance',
      code: 'FIN',
      costCentre: 1234,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await runProductJobs(w.server, env);
    expect(receiver.received).toHaveLength(1);

    const { user, history } = renderApp(w, { as: 'ada', path: '/my-claims' });
    await openUserMenu(user, 'ada');
    await user.click(await screen.findByRole('menuitem', { name: 'Webhook deliveries' }));
    expect(history.location.pathname).toBe('/admin/webhooks');
    const table = await screen.findByRole('table', { name: 'Webhook deliveries' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent('accounting');
    expect(row).toHaveTextContent('Department.created');
    expect(row).toHaveTextContent('503');

    await user.click(within(row!).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Queued to be sent again.')).toHaveAttribute('role', 'status');
    // the list shows the new delivery beside the first
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Webhook deliveries' })).getAllByRole('row'),
      ).toHaveLength(3),
    );
    // one record's deliveries keep their order: the first one's retry (now answered) goes before it
    w.server.clock.advance(3_600_000);
    while ((await runProductJobs(w.server, env)) > 0);
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.map((body) => (JSON.parse(body) as { type: string }).type)).toEqual([
      'Department.created',
      'Department.created',
      'Department.created',
    ]);
  });

  it('refuses the deliveries and the mail outbox to someone who is not an admin', async () => {
    const w = await world(hookedModel());
    await w.user('ann', ['employee']);
    const deliveries = renderApp(w, { as: 'ann', path: '/admin/webhooks' });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    deliveries.unmount();
    renderApp(w, { as: 'ann', path: '/admin/mail' });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect((await w.api('ann', 'GET', '/api/admin/webhook-deliveries')).status).toBe(403);
  });
});
