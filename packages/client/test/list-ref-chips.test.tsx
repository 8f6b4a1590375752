/**
 * A list of refs (`many: true`, decision 0044) reads as chips of the listed records' titles — never
 * their ids — on a detail page, in the order the list holds them; the form edits it with the
 * searchable multi-select and the server keeps what was picked.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { type World, renderApp, world } from './harness';

let w: World;

beforeAll(async () => {
  w = await world('expense-claims.md');
  await w.user('ann', ['employee']);
  await w.user('adm', ['admin']);
  for (const name of ['bob', 'cy']) await w.user(name, ['employee']);
  // titles come from the users' names, given by an administrator
  for (const [name, title] of [
    ['bob', 'Bob Builder'],
    ['cy', 'Cy Twombly'],
  ] as const) {
    const id = w.users[name]?.id ?? '';
    const user = await w.api('adm', 'GET', `/api/users/${id}`);
    const named = await w.api(
      'adm',
      'PATCH',
      `/api/users/${id}`,
      { name: title },
      { 'if-match': `"${String(user.body['version'])}"` },
    );
    expect(named.status, JSON.stringify(named.body)).toBe(200);
  }
}, 60_000);

describe('a list of refs', () => {
  it('shows each listed record as a chip with its title, in order, never an id', async () => {
    const bob = w.users['bob']?.id ?? '';
    const cy = w.users['cy']?.id ?? '';
    const created = await w.api('ann', 'POST', '/api/claims', {
      title: 'Team dinner',
      amount: '18.50',
      category: 'meals',
      spentOn: '2026-02-14',
      attendees: [cy, bob],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    renderApp(w, { as: 'ann', path: `/claims/${String(created.body['id'])}` });
    const chips = await screen.findByRole('list', { name: 'Attendees' }, { timeout: 10_000 });
    await waitFor(() =>
      expect(
        within(chips)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Cy Twombly', 'Bob Builder']),
    );
    expect(chips.textContent).not.toContain(bob);
    expect(within(chips).getByRole('link', { name: 'Bob Builder' })).toBeInTheDocument();
  }, 60_000);
});
