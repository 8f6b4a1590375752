import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { type World, renderApp, world } from './harness';

type Json = Record<string, unknown>;

/**
 * Expense claims, as its people use a claim's page: Ann (employee) and Mia (manager) in Sales,
 * Fin in finance, Aud the auditor, and Adm who keeps departments and people.
 */
let w: World;

beforeAll(async () => {
  w = await world('expense-claims.md');
  for (const [name, roles] of [
    ['ann', ['employee']],
    ['mia', ['manager']],
    ['fin', ['finance']],
    ['aud', ['auditor']],
    ['adm', ['admin']],
  ] as const)
    await w.user(name, roles);
  const sales = await w.api('adm', 'POST', '/api/departments', {
    name: 'Sales',
    code: 'SAL',
    costCentre: 1001,
  });
  expect(sales.status).toBe(201);
  // people join their department through the API, as an administrator does it
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
async function claim(
  values: Json,
  steps: [by: string, transition: string, input?: Json][] = [],
): Promise<Json> {
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

const actions = () => within(screen.getByRole('group', { name: 'Actions' }));
const field = (name: string) => document.querySelector(`[data-field="${name}"]`);
const history = async () => within(await screen.findByRole('list', { name: 'History' }));
/** The state badge beside the title. */
const badge = () => screen.getByRole('heading', { level: 1 }).parentElement?.querySelector('[data-state]');

/** Opens a claim's page as one of the people, once it shows its title. */
async function open(as: string, record: Json) {
  // a delete is held for its Undo (decision 0066): briefly here
  const rendered = renderApp(w, { as, path: `/claims/${String(record['id'])}`, undoMs: 200 });
  // the first page also loads the screen's code: more than findBy's default second
  await screen.findByRole('heading', { name: String(record['title']), level: 1 }, { timeout: 10_000 });
  return rendered;
}

describe('a claim’s page', () => {
  it('offers the employee Submit and Withdraw on a draft, asks the question, and moves the state', async () => {
    const record = await claim({ title: 'Train to Lyon', merchant: 'SNCF', description: 'ACME workshop' });
    const { user } = await open('ann', record);
    expect(document.title).toBe('Train to Lyon · Claim · Expense claims');
    expect(badge()).toHaveAttribute('data-state', 'draft');
    expect(badge()).toHaveTextContent('Draft');
    expect(field('amount')).toHaveTextContent('Amount€18.50');
    expect(field('merchant')).toHaveTextContent('SNCF');
    // the server decides what may be fired now: the owner submits or withdraws, never approves
    expect(actions().getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(actions().getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    expect(actions().queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(actions().getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/claims/${String(record['id'])}/edit`,
    );
    expect(await (await history()).findByText('Created')).toBeInTheDocument();

    await user.click(actions().getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Submit' }));
    expect(
      dialog.getByText('Submit this claim for approval? You will not be able to edit it afterwards.'),
    ).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(badge()).toHaveAttribute('data-state', 'submitted'));
    expect(badge()).toHaveTextContent('Waiting for approval');
    await waitFor(() => expect(actions().queryByRole('button', { name: 'Submit' })).toBeNull());
    expect(actions().getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    // submitted, it is no longer the employee's to edit
    expect(actions().queryByRole('link', { name: 'Edit' })).toBeNull();
    const entry = await (await history()).findByText('Submit');
    const item = entry.closest('[role="listitem"]') as HTMLElement;
    expect(item).toHaveTextContent('(Draft → to Waiting for approval)');
    expect(item).toHaveTextContent('by ann');
    expect(item.querySelector('[data-change="submittedAt"]')).not.toBeNull();
    // the page's own live region (the shell has one for the offline queue too)
    expect(screen.getByText('Submit: now Waiting for approval.')).toHaveAttribute('role', 'status');
    // and the server agrees
    const stored = await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`);
    expect(stored.body['state']).toBe('submitted');
  });

  it('asks the manager for the reason of a rejection, refusing an empty or blank one, and approves', async () => {
    const rejected = await claim({ title: 'Client lunch', category: 'other' }, [['ann', 'submit']]);
    const { user } = await open('mia', rejected);
    expect(actions().getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(actions().queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(actions().queryByRole('button', { name: 'Withdraw' })).toBeNull();

    await user.click(actions().getByRole('button', { name: 'Reject' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject' }));
    await user.click(dialog.getByRole('button', { name: 'Reject' }));
    expect(await dialog.findByText('Reason for rejection is required.')).toBeInTheDocument();
    expect((await w.api('ann', 'GET', `/api/claims/${String(rejected['id'])}`)).body['state']).toBe(
      'submitted',
    );

    // blank text is no reason: spaces and a zero-width space are refused as nothing was
    const reason = dialog.getByLabelText(/Reason for rejection/);
    await user.type(reason, '  \u200b ');
    expect(dialog.queryByText('Reason for rejection is required.')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Reject' }));
    expect(await dialog.findByText('Reason for rejection is required.')).toBeInTheDocument();
    expect((await w.api('ann', 'GET', `/api/claims/${String(rejected['id'])}`)).body['state']).toBe(
      'submitted',
    );

    await user.clear(reason);
    await user.type(reason, 'No receipt attached');
    expect(dialog.queryByText('Reason for rejection is required.')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(badge()).toHaveAttribute('data-state', 'rejected'));
    expect(field('rejectionReason')).toHaveTextContent('No receipt attached');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await (await history()).findByText('Reject')).toBeInTheDocument();
  });

  it('lets the manager approve without a question, and shows who approved', async () => {
    const submitted = await claim({ title: 'Taxi to the airport' }, [['ann', 'submit']]);
    const { user } = await open('mia', submitted);
    await user.click(actions().getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(badge()).toHaveAttribute('data-state', 'approved'));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(field('approvedBy')).toHaveTextContent('mia'));
  });

  it('has finance give a payment reference, showing the server’s pattern error in the dialog', async () => {
    const approved = await claim({ title: 'Conference fee' }, [
      ['ann', 'submit'],
      ['mia', 'approve'],
    ]);
    const { user } = await open('fin', approved);
    expect(actions().queryByRole('button', { name: 'Approve' })).toBeNull();
    await user.click(actions().getByRole('button', { name: 'Mark as paid' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Mark as paid' }));
    expect(
      dialog.getByText('Record this claim as paid? Do this once the bank transfer is sent.'),
    ).toBeInTheDocument();
    const reference = dialog.getByLabelText(/Payment reference/);
    await user.type(reference, 'March transfer');
    await user.click(dialog.getByRole('button', { name: 'Mark as paid' }));
    // the pattern is the server's to check: its message is shown beside the field
    const problem = await w.api(
      'fin',
      'POST',
      `/api/claims/${String(approved['id'])}/transitions/pay`,
      {
        paymentReference: 'March transfer',
      },
      { 'if-match': `"${String(approved['version'])}"` },
    );
    expect(problem.status).toBe(422);
    const expected = (problem.body['errors'] as { field: string; message: string }[]).find(
      (e) => e.field === 'paymentReference',
    )?.message;
    expect(expected).toBeTruthy();
    expect(await dialog.findByText(expected ?? '')).toBeInTheDocument();
    expect(reference).toHaveAttribute('aria-invalid', 'true');

    await user.clear(reference);
    await user.type(reference, 'PAY-20260301');
    await user.click(dialog.getByRole('button', { name: 'Mark as paid' }));
    await waitFor(() => expect(badge()).toHaveAttribute('data-state', 'paid'));
    expect(field('paymentReference')).toHaveTextContent('PAY-20260301');
    expect(field('paidOn')).toHaveTextContent('1 Mar 2026');
    // a closed claim offers nothing more
    expect(actions().queryAllByRole('button')).toHaveLength(0);
  });

  it('shows the auditor only the fields they may read, in the page and in its history', async () => {
    const record = await claim({
      title: 'Hotel in Paris',
      merchant: 'Hôtel du Nord',
      description: 'Two nights',
    });
    await open('aud', record);
    expect(field('amount')).toHaveTextContent('€18.50');
    expect(field('merchant')).toBeNull();
    expect(field('description')).toBeNull();
    expect(screen.queryByText('Hôtel du Nord')).toBeNull();
    expect(screen.queryByText('Two nights')).toBeNull();
    // the auditor changes nothing
    expect(actions().queryAllByRole('button')).toHaveLength(0);
    expect(actions().queryAllByRole('link')).toHaveLength(0);
    const created = (await (await history()).findByText('Created')).closest(
      '[role="listitem"]',
    ) as HTMLElement;
    expect(created.querySelector('[data-change="amount"]')).not.toBeNull();
    expect(created.querySelector('[data-change="merchant"]')).toBeNull();
    expect(created.querySelector('[data-change="description"]')).toBeNull();
  });

  it('deletes after asking, and goes back to the list', async () => {
    const record = await claim({ title: 'Parking by mistake' });
    const { user, history } = await open('ann', record);
    await user.click(actions().getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete claim' }));
    expect(
      dialog.getByText('Delete “Parking by mistake”? You can undo it for a few seconds.'),
    ).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(history.location.pathname).toBe('/my-claims'));
    await waitFor(async () =>
      expect((await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`)).status).toBe(404),
    );
  });

  it('does not delete a claim someone changed meanwhile, and offers to reload it', async () => {
    const record = await claim({ title: 'Museum tickets' });
    const { user } = await open('ann', record);
    // another tab renames it
    const renamed = await w.api(
      'ann',
      'PATCH',
      `/api/claims/${String(record['id'])}`,
      { title: 'Museum tickets (team)' },
      {
        'if-match': `"${String(record['version'])}"`,
      },
    );
    expect(renamed.status).toBe(200);

    await user.click(actions().getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete claim' }));
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Someone else changed this record since you opened it. Reload to see their changes.',
    );
    expect((await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`)).status).toBe(200);
    await user.click(dialog.getByRole('button', { name: 'Reload' }));
    expect(
      await screen.findByRole('heading', { name: 'Museum tickets (team)', level: 1 }),
    ).toBeInTheDocument();
  });

  it('does not fire a transition on a claim changed meanwhile, and offers to reload it', async () => {
    const record = await claim({ title: 'Coffee with a candidate' });
    const { user } = await open('ann', record);
    const renamed = await w.api(
      'ann',
      'PATCH',
      `/api/claims/${String(record['id'])}`,
      { title: 'Coffee with two candidates' },
      { 'if-match': `"${String(record['version'])}"` },
    );
    expect(renamed.status).toBe(200);

    await user.click(actions().getByRole('button', { name: 'Withdraw' }));
    // `confirm: true` asks the transition's own question
    const dialog = within(await screen.findByRole('dialog', { name: 'Withdraw' }));
    expect(dialog.getByText('Withdraw?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Withdraw' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Someone else changed this record since you opened it. Reload to see their changes.',
    );
    expect(dialog.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    expect((await w.api('ann', 'GET', `/api/claims/${String(record['id'])}`)).body['state']).toBe('draft');
    await user.click(dialog.getByRole('button', { name: 'Reload' }));
    expect(
      await screen.findByRole('heading', { name: 'Coffee with two candidates', level: 1 }),
    ).toBeInTheDocument();
    expect(badge()).toHaveAttribute('data-state', 'draft');
  });

  it('says a claim that does not exist is not found', async () => {
    renderApp(w, { as: 'ann', path: '/claims/0190a000-0000-7000-8000-000000000000' });
    expect(await screen.findByRole('heading', { name: 'Not found', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('This claim does not exist or you may not see it.')).toBeInTheDocument();
  });
});
