/**
 * The admin area's jobs page against the real server: an admin reaches it from the user menu, sees
 * a dead job with its attempts and last error, filters by state, and retries it (the server puts it
 * back to pending); someone who is not an admin has no admin entry and is refused the page.
 */
import { givenDeadJob, givenWaitingJob } from '@ninefold/testkit';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openUserMenu, renderApp, world } from './harness';

async function withDeadJob(w: Awaited<ReturnType<typeof world>>) {
  const dead = await givenDeadJob(w.server, 'deliver', 'receiver down');
  w.server.clock.advance(1000);
  // one that waits: it stays pending, and has nothing to retry
  await givenWaitingJob(w.server, 'later', 3_600_000);
  return dead.id;
}

describe('the admin area: jobs', () => {
  it('shows an admin the dead job from the user menu, filters by state, and retries it', async () => {
    const w = await world('expense-claims.md');
    await w.user('ada', ['admin', 'employee']);
    const deadId = await withDeadJob(w);
    const { user, history } = renderApp(w, { as: 'ada', path: '/my-claims' });

    await openUserMenu(user, 'ada');
    await user.click(await screen.findByRole('menuitem', { name: 'Jobs' }));
    expect(history.location.pathname).toBe('/admin/jobs');
    expect(await screen.findByRole('heading', { name: 'Jobs', level: 1 })).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'Jobs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['later', 'deliver']);
    const deadRow = rows[1]!;
    expect(deadRow).toHaveTextContent('Dead');
    expect(deadRow).toHaveTextContent('1 of 1');
    expect(deadRow).toHaveTextContent('receiver down');
    // only a dead job can be retried
    expect(within(rows[0]!).queryByRole('button', { name: 'Retry' })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Dead' }));
    expect(history.location.search).toBe('?state=dead');
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Jobs' })).getAllByRole('row')).toHaveLength(2),
    );

    await user.click(
      within(screen.getByRole('table', { name: 'Jobs' })).getByRole('button', { name: 'Retry' }),
    );
    // no longer dead: the filtered list is empty, and the server has it pending with its attempts back
    expect(await screen.findByText('No dead jobs.')).toBeInTheDocument();
    const jobs = await w.api('ada', 'GET', '/api/admin/jobs');
    const retried = (jobs.body['data'] as { id: string; state: string; attempts: number }[]).find(
      (job) => job.id === deadId,
    );
    expect(retried).toMatchObject({ state: 'pending', attempts: 0 });

    await user.click(screen.getByRole('radio', { name: 'All' }));
    const all = await screen.findByRole('table', { name: 'Jobs' });
    await waitFor(() => expect(within(all).getAllByText('Pending')).toHaveLength(2));
  });

  it('gives someone who is not an admin no admin entry, and refuses them the page', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    await withDeadJob(w);
    const { user, unmount } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await openUserMenu(user, 'ann');
    await screen.findByRole('menuitem', { name: 'Sign out' });
    expect(screen.queryByRole('menuitem', { name: 'Jobs' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Mail outbox' })).toBeNull();
    unmount();

    renderApp(w, { as: 'ann', path: '/admin/jobs' });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Jobs' })).toBeNull();
    // and the server agrees
    expect((await w.api('ann', 'GET', '/api/admin/jobs')).status).toBe(403);
  });
});
