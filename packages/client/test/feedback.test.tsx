import { compile } from '@ninefold/language';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type World, renderApp, world } from './harness';

type Json = Record<string, unknown>;

/**
 * What a write says once it is through (decision 0066): a toast that links to the record, Undo
 * where the spec lets the user fire the way back, a note when a list row leaves its list; and what
 * a refused form, a detail page and the landing page do for the person in front of them.
 *
 * Expense claims with one transition more, the way back from "submit" (`recall`), so that a
 * submitted claim's owner may undo the submission.
 */
let w: World;

function claimsWithRecall() {
  const text = readFileSync(join(process.cwd(), 'examples', 'expense-claims.md'), 'utf8').replace(
    '      withdraw:\n',
    '      recall:\n        from: submitted\n        to: draft\n        roles: [employee]\n        when: "own"\n      withdraw:\n',
  );
  const result = compile(text, { file: 'expense-claims.md' });
  if (!result.ok) throw new Error('the spec with recall does not compile');
  return result.model;
}

beforeAll(async () => {
  w = await world(claimsWithRecall());
  for (const [name, roles] of [
    ['ann', ['employee']],
    ['mia', ['manager']],
    ['fin', ['finance']],
    ['adm', ['admin']],
  ] as const)
    await w.user(name, roles);
  const sales = await w.api('adm', 'POST', '/api/departments', {
    name: 'Sales',
    code: 'SAL',
    costCentre: 1001,
  });
  expect(sales.status).toBe(201);
  for (const name of ['ann', 'mia']) {
    const id = w.users[name]?.id ?? '';
    const user = await w.api('adm', 'GET', `/api/users/${id}`);
    const joined = await w.api(
      'adm',
      'PATCH',
      `/api/users/${id}`,
      { department: sales.body['id'] },
      { 'if-match': `"${String(user.body['version'])}"` },
    );
    expect(joined.status).toBe(200);
  }
}, 60_000);

/** A claim of Ann's, moved through the named transitions by the people given. */
async function claim(values: Json, steps: [by: string, transition: string, input?: Json][] = []) {
  const created = await w.api('ann', 'POST', '/api/claims', { amount: '18.50', ...values });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  let record = created.body;
  for (const [by, transition, input = {}] of steps) {
    const fired = await w.api(
      by,
      'POST',
      `/api/claims/${String(record['id'])}/transitions/${transition}`,
      input,
      {
        'if-match': `"${String(record['version'])}"`,
      },
    );
    expect(fired.status, JSON.stringify(fired.body)).toBe(200);
    record = fired.body;
  }
  return record;
}

const messages = () => within(screen.getByRole('region', { name: 'Messages' }));
const actions = () => within(screen.getByRole('group', { name: 'Actions' }));
const badge = () => screen.getByRole('heading', { level: 1 }).parentElement?.querySelector('[data-state]');

async function openClaim(as: string, record: Json) {
  const rendered = renderApp(w, { as, path: `/claims/${String(record['id'])}` });
  await screen.findByRole('heading', { name: String(record['title']), level: 1 }, { timeout: 10_000 });
  return rendered;
}

describe('toasts', () => {
  it('a transition says where the record went, links to it, and Undo fires the way back', async () => {
    const record = await claim({ title: 'Hotel in Ghent' });
    const { user } = await openClaim('ann', record);
    await user.click(actions().getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Submit' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const toast = within(
      (await messages().findByText('Claim moved to Waiting for approval', {}, { timeout: 10_000 })).closest(
        '[data-toast]',
      ) as HTMLElement,
    );
    expect(toast.getByRole('link', { name: 'Open “Hotel in Ghent”' })).toHaveAttribute(
      'href',
      `/claims/${String(record['id'])}`,
    );
    // the spec lets Ann recall what she submitted: that is the Undo
    await user.click(toast.getByRole('button', { name: 'Undo' }));
    expect(
      await messages().findByText('Undone: Claim back to Draft', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(badge()).toHaveAttribute('data-state', 'draft'));
    const stored = await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`);
    expect(stored.body['state']).toBe('draft');
  });

  it('offers no Undo where the spec has no way back for the user', async () => {
    const record = await claim({ title: 'Parking at the fair' }, [['ann', 'submit']]);
    const { user } = await openClaim('mia', record);
    await user.click(actions().getByRole('button', { name: 'Approve' }));
    const text = await messages().findByText('Claim moved to Approved', {}, { timeout: 10_000 });
    const toast = within(text.closest('[data-toast]') as HTMLElement);
    expect(toast.getByRole('link', { name: 'Open “Parking at the fair”' })).toBeInTheDocument();
    expect(toast.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('a transition from a list row asks the spec’s question, and the row that leaves says so', async () => {
    const record = await claim({ title: 'Taxi in Porto' }, [
      ['ann', 'submit'],
      ['mia', 'approve'],
    ]);
    const { user } = renderApp(w, { as: 'fin', path: '/payments' });
    const row = await screen.findByText('Taxi in Porto', {}, { timeout: 10_000 });
    const tr = within(row.closest('tr') as HTMLElement);
    await user.click(await tr.findByRole('button', { name: 'Mark as paid' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Mark as paid' }));
    // the same question as on the claim's page
    expect(
      dialog.getByText('Record this claim as paid? Do this once the bank transfer is sent.'),
    ).toBeInTheDocument();
    await user.type(dialog.getByRole('textbox', { name: /Payment reference/ }), 'PAY-20260123');
    await user.click(dialog.getByRole('button', { name: 'Mark as paid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
    const stored = await w.api('fin', 'GET', `/api/claims/${String(record['id'])}`);
    expect(stored.body['state']).toBe('paid');

    // the row goes, and the toast says why, still linking to the claim
    await waitFor(() => expect(screen.queryByText('Taxi in Porto', { selector: 'a' })).toBeNull(), {
      timeout: 10_000,
    });
    const text = await messages().findByText(
      /Claim moved to Paid — no longer in this list/,
      {},
      { timeout: 10_000 },
    );
    expect(within(text.closest('[data-toast]') as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      `/claims/${String(record['id'])}`,
    );
  });

  it('a create and a change confirm themselves with a link; a delete without a link, with Undo', async () => {
    const { user, history } = renderApp(w, { as: 'adm', path: '/departments/new' });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }, { timeout: 10_000 }), 'Research');
    await user.type(screen.getByRole('textbox', { name: /^Code/ }), 'RND');
    await user.type(screen.getByRole('textbox', { name: /^Cost centre/ }), '2002');
    await user.click(screen.getByRole('button', { name: 'Create department' }));
    const created = await messages().findByText('Department “Research” created', {}, { timeout: 10_000 });
    const link = within(created.closest('[data-toast]') as HTMLElement).getByRole('link', {
      name: 'Open “Research”',
    });
    await waitFor(() => expect(history.location.pathname).toBe(link.getAttribute('href')));

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete department' }));
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Delete' })).toBeEnabled());
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    const deleted = await messages().findByText('Department “Research” deleted', {}, { timeout: 10_000 });
    const toast = within(deleted.closest('[data-toast]') as HTMLElement);
    expect(toast.queryByRole('link')).toBeNull();
    expect(toast.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
  });
});

/**
 * A delete is held in the browser while its toast offers Undo, and sent when that window ends
 * (decision 0066, update): Undo sends nothing; a refusal then puts the record back; leaving the
 * page sends it at once.
 */
describe('a held delete', () => {
  async function deleteClaim(record: Json, undoMs: number, network?: (f: typeof fetch) => typeof fetch) {
    const rendered = renderApp(w, {
      as: 'ann',
      path: `/claims/${String(record['id'])}`,
      undoMs,
      ...(network === undefined ? {} : { network }),
    });
    await screen.findByRole('heading', { name: String(record['title']), level: 1 }, { timeout: 10_000 });
    await rendered.user.click(actions().getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete claim' }));
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Delete' })).toBeEnabled());
    await rendered.user.click(dialog.getByRole('button', { name: 'Delete' }));
    const said = await messages().findByText(
      `Claim “${String(record['title'])}” deleted`,
      {},
      { timeout: 10_000 },
    );
    return { ...rendered, toast: within(said.closest('[data-toast]') as HTMLElement) };
  }
  const status = async (record: Json) =>
    (await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`)).status;

  it('is not sent when undone: the server keeps the record, its list and page show it again', async () => {
    const record = await claim({ title: 'Undone taxi' });
    const { user, toast, history } = await deleteClaim(record, 60_000);
    await waitFor(() => expect(history.location.pathname).toBe('/my-claims'));
    // gone from the list at once, though the server still has it
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Undone taxi')).toBeNull());
    expect(await status(record)).toBe(200);

    await user.click(toast.getByRole('button', { name: 'Undo' }));
    expect(await toast.findByText('Claim “Undone taxi” restored')).toBeInTheDocument();
    expect(await screen.findByText('Undone taxi', {}, { timeout: 10_000 })).toBeInTheDocument();
    const link = toast.getByRole('link', { name: 'Open “Undone taxi”' });
    await user.click(link);
    expect(await screen.findByRole('heading', { name: 'Undone taxi', level: 1 })).toBeInTheDocument();
    expect(await status(record)).toBe(200);
  });

  it('is sent when its window ends', async () => {
    const record = await claim({ title: 'Gone taxi' });
    const { toast } = await deleteClaim(record, 300);
    await waitFor(async () => expect(await status(record)).toBe(404), { timeout: 5_000 });
    await waitFor(() => expect(toast.queryByRole('button', { name: 'Undo' })).toBeNull());
  });

  it('refused when it is sent (changed meanwhile): the record is back, and a toast says why', async () => {
    const record = await claim({ title: 'Contested taxi' });
    const { user, toast } = await deleteClaim(record, 1_500);
    const renamed = await w.api(
      'ann',
      'PATCH',
      `/api/claims/${String(record['id'])}`,
      { title: 'Contested taxi (kept)' },
      { 'if-match': `"${String(record['version'])}"` },
    );
    expect(renamed.status).toBe(200);
    expect(toast.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    const refused = await messages().findByText(
      'Claim “Contested taxi” was not deleted: Someone else changed this record since you opened it. Reload to see their changes.',
      {},
      { timeout: 10_000 },
    );
    const error = within(refused.closest('[data-toast]') as HTMLElement);
    expect(refused.closest('[data-toast]')).toHaveAttribute('data-toast', 'error');
    expect(await status(record)).toBe(200);
    expect(
      await screen.findByRole('link', { name: 'Contested taxi (kept)' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await user.click(error.getByRole('link', { name: 'Open “Contested taxi”' }));
    expect(
      await screen.findByRole('heading', { name: 'Contested taxi (kept)', level: 1 }),
    ).toBeInTheDocument();
  });

  it('is sent at once, with keepalive, when the page goes', async () => {
    const record = await claim({ title: 'Left taxi' });
    const sent: RequestInit[] = [];
    await deleteClaim(record, 60_000, (f) => (input, init) => {
      if (init?.method === 'DELETE') sent.push(init);
      return f(input, init);
    });
    expect(await status(record)).toBe(200);
    window.dispatchEvent(new Event('pagehide'));
    // the request left before the event's handler returned
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ keepalive: true, credentials: 'same-origin' });
    const headers = new Headers(sent[0]?.headers);
    expect(headers.get('if-match')).toBe(`"${String(record['version'])}"`);
    expect(headers.get(CSRF_HEADER)).toBe(CSRF_HEADER_VALUE);
    await waitFor(async () => expect(await status(record)).toBe(404));
  });
});

describe('a refused form', () => {
  it('focuses its summary, whose links lead to each field that says what is wrong', async () => {
    const { user } = renderApp(w, { as: 'ann', path: '/claims/new' });
    const title = await screen.findByRole('textbox', { name: /^Title/ }, { timeout: 10_000 });
    await user.type(title, 'ab');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));

    const summary = await screen.findByRole('alert', { name: 'Please check' });
    await waitFor(() => expect(summary).toHaveFocus());
    const fields = within(within(summary).getByRole('list', { name: 'Fields to check' }));
    const titleLink = fields.getByRole('link', { name: /^Title: Title must be at least 3 characters long/ });
    await user.click(titleLink);
    expect(title).toHaveFocus();
    await user.click(fields.getByRole('link', { name: /^Amount: Amount is required/ }));
    expect(screen.getByRole('textbox', { name: /^Amount/ })).toHaveFocus();
  });
});

describe('a detail page', () => {
  it('folds the fields without a value into one group, below the others', async () => {
    const record = await claim({ title: 'Train to Lille', merchant: 'SNCF' });
    const { user } = await openClaim('ann', record);
    const group = screen.getByTestId('empty-fields');
    expect(group).not.toHaveAttribute('open');
    const summary = within(group).getByText(/^Empty fields \(\d+\)$/);
    const count = Number(/\((\d+)\)/.exec(summary.textContent ?? '')?.[1]);
    expect(group.querySelectorAll('[data-field]')).toHaveLength(count);
    // a field with a value is outside it, one without inside
    expect(group.querySelector('[data-field="merchant"]')).toBeNull();
    expect(group.querySelector('[data-field="description"]')).not.toBeNull();
    expect(document.querySelector('[data-field="merchant"]')).toHaveTextContent('SNCF');
    await user.click(summary);
    expect(group).toHaveAttribute('open');
  });
});

describe('landing and the unspecified facets', () => {
  it('lands each role on its first screen, never on About', async () => {
    const employee = renderApp(w, { as: 'ann', path: '/' });
    await waitFor(() => expect(employee.history.location.pathname).toBe('/my-claims'), { timeout: 10_000 });
    employee.unmount();
    const admin = renderApp(w, { as: 'adm', path: '/' });
    await waitFor(() => expect(admin.history.location.pathname).not.toBe('/'), { timeout: 10_000 });
    expect(admin.history.location.pathname).not.toBe('/about');
  });

  it('never lands on About, and keeps the unspecified facets to /about and admins', async () => {
    const seed = await world('seed.txt');
    await seed.user('sam', ['user']);
    const { history } = renderApp(seed, { as: 'sam', path: '/' });
    await waitFor(() => expect(history.location.pathname).not.toBe('/'), { timeout: 10_000 });
    expect(history.location.pathname).not.toBe('/about');
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'About this app' })).not.toHaveTextContent(/unspecified/);
  });

  it('shows the count of unspecified facets beside About to an admin', async () => {
    // expense claims leaves none unspecified: the model says one section is not, as a short spec's would
    const model = claimsWithRecall();
    const facets = { ...model.facets, calls: { ...model.facets.calls, specified: false } };
    const unspecified = Object.values(facets).filter((f) => !f.specified).length;
    const short = await world({ ...model, facets });
    await short.user('adm', ['admin']);
    await short.user('ann', ['employee']);
    const admin = renderApp(short, { as: 'adm', path: '/about' });
    const about = await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('link', {
      name: /About this app/,
    });
    expect(about).toHaveTextContent(`${unspecified} unspecified`);
    admin.unmount();
    renderApp(short, { as: 'ann', path: '/about' });
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'About this app' })).not.toHaveTextContent(/unspecified/);
    // the page itself still says it, to everyone
    expect(await screen.findByTestId('unspecified-summary')).toBeInTheDocument();
  });
});
