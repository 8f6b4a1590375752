import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type World, renderApp, world } from './harness';

// screens load on demand and the server answers in-process: allow for a busy machine
configure({ asyncUtilTimeout: 10_000 });

type Rendered = ReturnType<typeof renderApp>;

/** The records of a resource as a user sees them over HTTP. */
async function records(w: World, as: string, resource: string, base = '/api') {
  const { body } = await w.api(as, 'GET', `${base}/${resource}?limit=100`);
  return body['data'] as Record<string, unknown>[];
}

/** The id in the path of the detail page the app went to, once the form has gone. */
async function landedOn(history: Rendered['history'], pattern: RegExp): Promise<string> {
  await waitFor(() => expect(history.location.pathname).toMatch(pattern));
  await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
  return pattern.exec(history.location.pathname)?.[1] ?? '';
}

const textbox = (name: RegExp | string) => screen.getByRole('textbox', { name });

/** Picks a record in a RefPicker by typing part of its title. */
async function pick(user: Rendered['user'], label: string, typed: string, option: string) {
  const input = screen.getByRole('combobox', { name: label });
  await user.click(input);
  await user.type(input, typed);
  await user.click(await screen.findByRole('option', { name: option }));
}

async function claimsWorld() {
  const w = await world('expense-claims.md');
  const ann = await w.user('ann', ['employee']);
  const bob = await w.user('bob', ['employee']);
  await w.user('root', ['admin']);
  const dept = await w.api('root', 'POST', '/api/departments', {
    name: 'Finance',
    code: 'FIN',
    costCentre: 1234,
  });
  const annRecord = await w.api('root', 'GET', `/api/users/${ann.id}`);
  await w.api(
    'root',
    'PATCH',
    `/api/users/${ann.id}`,
    { department: dept.body['id'] },
    {
      'if-match': `"${String(annRecord.body['version'])}"`,
    },
  );
  return { w, ann, bob, departmentId: String(dept.body['id']) };
}

describe('the create form', () => {
  it('sends a create again with its key after its answers were lost, and one record is made (no offline queue)', async () => {
    const { w: queued } = await claimsWorld();
    // with `calls.offlineQueue` the create would wait on the device (offline.test.tsx): here the user sends it again
    const w = {
      ...queued,
      model: { ...queued.model, calls: { ...queued.model.calls, offlineQueue: false } },
    };
    let lose = true;
    const { user, history } = renderApp(w, {
      as: 'ann',
      path: '/claims/new',
      // the server does the create, but the answer never comes back
      network: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        if (lose && init?.method === 'POST' && String(input).endsWith('/api/claims')) {
          throw new TypeError('Failed to fetch');
        }
        return response;
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Night bus home');
    await user.type(textbox(/^Amount/), '7.5');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    // the client's own retries were lost too: the user is told, and stays on the form
    expect(await screen.findByText(/The server could not be reached/)).toBeInTheDocument();
    expect(history.location.pathname).toBe('/claims/new');
    const made = await records(w, 'ann', 'claims');
    expect(made.map((c) => c['title'])).toEqual(['Night bus home']);

    lose = false;
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    const id = await landedOn(history, /^\/claims\/(?!new$)([^/]+)$/);
    expect(id).toBe(made[0]?.['id']);
    expect(await records(w, 'ann', 'claims')).toHaveLength(1);
  }, 60_000);

  it('gives each field type its control and sends the server exactly what was entered', async () => {
    const { w, bob, departmentId } = await claimsWorld();
    const { user, history } = renderApp(w, { as: 'ann', path: '/claims/new' });
    // the heading shows while the form's code loads (the placeholder's, then the form's own)
    await screen.findByRole('heading', { name: 'New claim', level: 1 });
    // the form is there with its button, under its heading
    await screen.findByRole('button', { name: 'Create claim' });
    expect(screen.getByRole('heading', { name: 'New claim', level: 1 })).toBeInTheDocument();

    // defaults: a literal (category), `today` (the server's clock), and `user.department` shown by its title
    expect(screen.getByRole('combobox', { name: /^Category/ })).toHaveValue('other');
    expect(screen.getByLabelText(/^Spent on/)).toHaveValue('01/03/2026'); // en-GB: day first
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Department' })).toHaveValue('Finance'));
    expect(screen.getByRole('switch', { name: 'Urgent' })).not.toBeChecked();

    await user.type(textbox(/^Title/), 'Client lunch in Lyon');
    // no native limit: a browser's counts UTF-16 units, the check counts characters (field-rules.test.tsx)
    expect(textbox(/^Title/)).not.toHaveAttribute('maxlength');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Category/ }), 'meals');
    await user.type(textbox(/^Amount/), '12.5');
    await user.tab();
    expect(textbox(/^Amount/)).toHaveValue('12.50'); // shown as it is stored, at the field's scale
    expect(screen.getAllByTitle('EUR')[0]).toHaveTextContent('€');
    await user.type(textbox(/^VAT/), '2.1');
    const spentOn = screen.getByLabelText(/^Spent on/);
    expect(spentOn).toHaveAttribute('placeholder', 'dd/mm/yyyy');
    await user.clear(spentOn);
    await user.type(spentOn, '2026-02-14');
    await user.type(textbox('Merchant'), 'Bouchon Daniel');
    // a file is uploaded as soon as it is chosen (files.test.tsx), and the form holds what it became
    await user.upload(
      screen.getByLabelText('Receipt: choose a file', { selector: 'input' }),
      new File(['%PDF-1.4\n%%EOF\n'], 'lunch.pdf', { type: 'application/pdf' }),
    );
    await screen.findByRole('button', { name: 'Remove lunch.pdf' });
    await user.type(textbox(/^Exchange rate/), '1.0825');
    await user.type(textbox(/^Paid in currency/), 'CHF');
    await pick(user, 'Attendees', 'bo', 'bob');
    await user.click(screen.getByRole('combobox', { name: 'Tags' }));
    await user.click(await screen.findByRole('option', { name: 'Client' }));
    await user.click(await screen.findByRole('option', { name: 'Conference' }));
    await user.click(screen.getByRole('switch', { name: 'Urgent' }));
    await user.type(textbox('Description'), 'Lunch with the ACME team.');
    await user.click(screen.getByRole('button', { name: 'Create claim' }));

    const id = await landedOn(history, /^\/claims\/(?!new$)([^/]+)$/);
    const { status, body } = await w.api('ann', 'GET', `/api/claims/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      title: 'Client lunch in Lyon',
      category: 'meals',
      amount: '12.50',
      vatAmount: '2.10',
      spentOn: '2026-02-14',
      merchant: 'Bouchon Daniel',
      receipt: { name: 'lunch.pdf', type: 'application/pdf', size: 15 },
      fxRate: '1.082500',
      originalCurrency: 'CHF',
      attendees: [bob.id],
      tags: ['client', 'conference'],
      department: departmentId,
      urgent: true,
      description: 'Lunch with the ACME team.',
      mileageKm: null,
      state: 'draft',
    });
  }, 90_000);

  it('round-trips time, datetime, phone, money in another currency, enums, a ref and JSON', async () => {
    const w = await world('bookings.yaml');
    await w.user('fay', ['facilities']);
    // an English reader of this Swiss (de-CH) product: en-CH writes numbers and dates as de-CH does
    const { user, history } = renderApp(w, { as: 'fay', path: '/sites/new', locale: 'en-CH' });

    // a site: text, a time with its default, a phone
    await screen.findByRole('heading', { name: 'New office', level: 1 });
    await screen.findByRole('button', { name: 'Create office' });
    await user.type(textbox(/^Name/), 'Zürich HQ');
    await user.type(textbox(/^City/), 'Zürich');
    await user.type(textbox('Address'), 'Bahnhofstrasse 1\n8001 Zürich');
    const opensAt = screen.getByLabelText(/^Opens at/);
    expect(opensAt).toHaveAttribute('placeholder', 'hh:mm');
    expect(opensAt).toHaveValue('07:00');
    await user.clear(opensAt);
    await user.type(opensAt, '08:15');
    const phone = textbox('Reception');
    expect(phone).toHaveAttribute('type', 'tel');
    expect(phone).toHaveAttribute('autocomplete', 'tel');
    await user.type(phone, '+41 44 668 18 00');
    await user.click(screen.getByRole('button', { name: /^Create/ }));
    const siteId = await landedOn(history, /^\/sites\/(?!new$)([^/]+)$/);
    const site = await w.api('fay', 'GET', `/api/v1/sites/${siteId}`);
    expect(site.body).toMatchObject({
      name: 'Zürich HQ',
      address: 'Bahnhofstrasse 1\n8001 Zürich',
      opensAt: '08:15:00',
      closesAt: '20:00:00',
      reception: '+41 44 668 18 00',
    });

    // a resource: a single enum, a ref, many enums, money in CHF, a datetime, an email, a colour, JSON
    history.push('/resources/new');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Pool car 3');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Kind/ }), 'car');
    await pick(user, 'Site', 'Zü', 'Zürich HQ');
    await user.clear(textbox(/^Capacity/));
    await user.type(textbox(/^Capacity/), '5');
    await user.click(screen.getByRole('combobox', { name: 'Features' }));
    await user.click(await screen.findByRole('option', { name: 'Electric' }));
    await user.type(textbox(/^Internal rate per hour/), '45.5');
    expect(screen.getByTitle('CHF')).toBeInTheDocument();
    const from = screen.getByLabelText(/^Available from/);
    expect(from).toHaveAttribute('placeholder', 'dd.mm.yyyy hh:mm'); // Swiss: day first, with dots
    await user.clear(from);
    await user.type(from, '2026-03-02T08:30');
    const contact = textbox(/^Contact e-mail/);
    expect(contact).toHaveAttribute('type', 'email');
    await user.type(contact, 'cars@example.com');
    await user.type(textbox(/^Colour/), '#2E8B57');
    await user.click(textbox(/^Equipment/));
    await user.paste('{"seats": 5,');
    await user.tab();
    expect(textbox(/^Equipment/)).toHaveAccessibleDescription(
      expect.stringContaining('Equipment must be JSON'),
    );
    await user.clear(textbox(/^Equipment/));
    await user.click(textbox(/^Equipment/));
    await user.paste('{"seats": 5, "charger": "type 2"}');
    expect(textbox(/^Equipment/)).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: /^Create/ }));
    const resourceId = await landedOn(history, /^\/resources\/(?!new$)([^/]+)$/);
    const resource = await w.api('fay', 'GET', `/api/v1/resources/${resourceId}`);
    expect(resource.body).toMatchObject({
      name: 'Pool car 3',
      kind: 'car',
      site: siteId,
      capacity: 5,
      features: ['electric'],
      hourlyRate: '45.50',
      // the wall-clock time typed, in the viewer's zone, as an instant in UTC
      availableFrom: new Date(2026, 2, 2, 8, 30).toISOString(),
      contact: 'cars@example.com',
      color: '#2e8b57',
      equipment: { seats: 5, charger: 'type 2' },
      needsApproval: false,
      bookable: true,
    });
  }, 90_000);

  it('shows the catalogue message as you type, and saves nothing while the engine says no', async () => {
    const { w } = await claimsWorld();
    const { user, history } = renderApp(w, { as: 'ann', path: '/claims/new' });
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    await user.type(title, 'ab');
    // nothing is said before the user leaves the field
    expect(title).not.toHaveAttribute('aria-invalid', 'true');
    await user.tab();
    expect(title).toHaveAccessibleDescription(
      expect.stringContaining('Title must be at least 3 characters long.'),
    );
    await user.type(title, 'c');
    await waitFor(() => expect(title).not.toHaveAttribute('aria-invalid', 'true'));
    await user.clear(title);
    await user.type(title, 'ab');
    expect(title).toHaveAccessibleDescription(
      expect.stringContaining('Title must be at least 3 characters long.'),
    );

    // on submit every field speaks, focus goes to the summary, whose first link leads to the first
    // problem, and nothing reaches the server
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    expect(textbox(/^Amount/)).toHaveAccessibleDescription(expect.stringContaining('Amount is required.'));
    const summary = await screen.findByRole('alert', { name: 'Please check' });
    await waitFor(() => expect(summary).toHaveFocus());
    await user.click(within(summary).getAllByRole('link')[0] as HTMLElement);
    expect(title).toHaveFocus();
    expect(history.location.pathname).toBe('/claims/new');
    expect(await records(w, 'ann', 'claims')).toHaveLength(0);

    // a decimal that is not a number, and one with too many decimals
    await user.type(textbox(/^Amount/), '12.3.4');
    expect(textbox(/^Amount/)).toHaveAccessibleDescription(
      expect.stringContaining('Amount must be a number like 12.50.'),
    );
    await user.clear(textbox(/^Amount/));
    await user.type(textbox(/^Amount/), '12.345');
    expect(textbox(/^Amount/)).toHaveAccessibleDescription(
      expect.stringContaining('Amount allows at most 2 decimal places.'),
    );
    // a whole number field refuses a fraction
    await user.type(textbox(/^Distance/), '1.5');
    await user.tab();
    expect(textbox(/^Distance/)).toHaveAccessibleDescription(
      expect.stringContaining('Distance (km) must be a whole number.'),
    );
  });

  it('puts a rule’s error beside its field and takes it away when the other value changes', async () => {
    const { w } = await claimsWorld();
    const { user } = renderApp(w, { as: 'ann', path: '/claims/new' });
    await user.type(await screen.findByRole('textbox', { name: /^Amount/ }), '10');
    await user.type(textbox(/^VAT/), '20');
    await user.tab();
    const said = 'The VAT cannot be more than the amount of the claim.';
    expect(textbox(/^VAT/)).toHaveAccessibleDescription(expect.stringContaining(said));
    expect(textbox(/^Amount/)).not.toHaveAttribute('aria-invalid', 'true');
    await user.clear(textbox(/^Amount/));
    await user.type(textbox(/^Amount/), '30');
    await waitFor(() => expect(textbox(/^VAT/)).not.toHaveAttribute('aria-invalid', 'true'));
    expect(screen.queryByText(said)).toBeNull();
  });

  it('puts a refusal only the server can make (a unique value) beside its field', async () => {
    const { w } = await claimsWorld();
    const { user, history } = renderApp(w, { as: 'root', path: '/departments/new' });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Finance operations');
    await user.type(textbox(/^Code/), 'FIN');
    await user.type(textbox(/^Cost centre/), '2345');
    await user.type(textbox(/^Finance contact/), 'ops@example.com');
    await user.click(screen.getByRole('button', { name: /^Create/ }));
    await waitFor(() =>
      expect(textbox(/^Code/)).toHaveAccessibleDescription(
        expect.stringContaining('Another record already has this Code.'),
      ),
    );
    expect(history.location.pathname).toBe('/departments/new');
    expect(await records(w, 'root', 'departments')).toHaveLength(1);
    // correcting the field takes the message away, and the save goes through
    await user.clear(textbox(/^Code/));
    await user.type(textbox(/^Code/), 'FOP');
    expect(textbox(/^Code/)).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: /^Create/ }));
    await landedOn(history, /^\/departments\/(?!new$)([^/]+)$/);
    expect(await records(w, 'root', 'departments')).toHaveLength(2);
  });

  it('refuses a create screen to a role that may not create', async () => {
    const { w } = await claimsWorld();
    await w.user('audrey', ['auditor']);
    renderApp(w, { as: 'audrey', path: '/claims/new' });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
  });
});

describe('the edit form', () => {
  it('shows read-only fields and those the role may not write, without letting them change', async () => {
    const w = await world('bookings.yaml');
    await w.user('fay', ['facilities']);
    const mo = await w.user('mo', ['member']);
    const site = await w.api('fay', 'POST', '/api/v1/sites', { name: 'HQ', city: 'Bern' });
    const room = await w.api('fay', 'POST', '/api/v1/resources', { name: 'Aare', site: site.body['id'] });
    const booking = await w.api('mo', 'POST', '/api/v1/bookings', {
      resource: room.body['id'],
      day: '2026-03-02',
      startTime: '09:00',
      endTime: '10:00',
    });
    expect(booking.status).toBe(201);

    // a new booking: the member may not write the import reference; a read-only field shows its
    // default, and one the server fills in later is not an empty box on the generated screen
    // an English reader of this Swiss (de-CH) product: en-CH writes numbers and dates as de-CH does
    const created = renderApp(w, { as: 'mo', path: '/bookings/new', locale: 'en-CH' });
    expect(await screen.findByRole('textbox', { name: /^External id/ })).toBeDisabled();
    const owner = screen.getByRole('combobox', { name: 'Booked by' });
    expect(owner).toBeDisabled();
    await waitFor(() => expect(owner).toHaveValue('mo'));
    expect(screen.queryByLabelText('Checked in at')).toBeNull();
    expect(screen.queryByLabelText('Catering cost')).toBeNull();
    created.unmount();

    const { user, history } = renderApp(w, {
      as: 'mo',
      path: `/bookings/${String(booking.body['id'])}/edit`,
      locale: 'en-CH',
    });
    const bookedBy = await screen.findByRole('combobox', { name: 'Booked by' });
    expect(bookedBy).toBeDisabled();
    await waitFor(() => expect(bookedBy).toHaveValue('mo'));
    expect(screen.getByLabelText('Checked in at')).toBeDisabled();
    expect(textbox(/^External id/)).toBeDisabled();
    expect(screen.getByLabelText(/^From/)).toHaveValue('09:00');
    expect(screen.getByLabelText(/^From/)).toBeEnabled();

    // only what changed is sent, with the version it is based on
    await user.clear(textbox(/^Title/));
    await user.type(textbox(/^Title/), 'Planning');
    await user.clear(screen.getByLabelText(/^Until/));
    await user.type(screen.getByLabelText(/^Until/), '10:30');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await landedOn(history, /^\/bookings\/([^/]+)$/);
    const { body } = await w.api('mo', 'GET', `/api/v1/bookings/${String(booking.body['id'])}`);
    expect(body).toMatchObject({ title: 'Planning', endTime: '10:30:00', startTime: '09:00:00', version: 2 });
    const changes = await w.api('mo', 'GET', `/api/v1/bookings/${String(booking.body['id'])}/history`);
    const entries = changes.body['data'] as { action: string; changes: Record<string, unknown> }[];
    const update = entries.find((entry) => entry.action === 'update');
    expect(Object.keys(update?.changes ?? {}).sort()).toEqual(['endTime', 'title']);
    expect(body['bookedBy']).toBe(mo.id);
  });

  it('says when someone else changed the record, and reloads it', async () => {
    const { w } = await claimsWorld();
    const claim = await w.api('ann', 'POST', '/api/claims', {
      title: 'Taxi',
      amount: '18.00',
      spentOn: '2026-02-20',
    });
    const id = String(claim.body['id']);
    const { user, history } = renderApp(w, { as: 'ann', path: `/claims/${id}/edit` });
    const merchant = await screen.findByRole('textbox', { name: 'Merchant' });
    expect(textbox(/^Title/)).toHaveValue('Taxi');

    // meanwhile, on another device
    const elsewhere = await w.api(
      'ann',
      'PATCH',
      `/api/claims/${id}`,
      { title: 'Taxi to the airport' },
      {
        'if-match': '"1"',
      },
    );
    expect(elsewhere.status).toBe(200);

    await user.type(merchant, 'Taxi Bleu');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else changed this record since you opened it.');
    expect(history.location.pathname).toBe(`/claims/${id}/edit`);
    expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['merchant']).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(textbox(/^Title/)).toHaveValue('Taxi to the airport'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(textbox('Merchant')).toHaveValue('');
    await user.type(textbox('Merchant'), 'Taxi Bleu');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await landedOn(history, /^\/claims\/(?!new$)([^/]+)$/);
    const saved = await w.api('ann', 'GET', `/api/claims/${id}`);
    expect(saved.body).toMatchObject({ title: 'Taxi to the airport', merchant: 'Taxi Bleu', version: 3 });
  });

  it('asks before leaving with unsaved changes, not after a save', async () => {
    const { w } = await claimsWorld();
    const claim = await w.api('ann', 'POST', '/api/claims', {
      title: 'Hotel',
      amount: '20.00',
      spentOn: '2026-02-20',
    });
    const id = String(claim.body['id']);
    const { user, history } = renderApp(w, { as: 'ann', path: `/claims/${id}/edit` });
    await user.type(await screen.findByRole('textbox', { name: 'Merchant' }), 'Ibis');

    await user.click(screen.getByRole('link', { name: /My claims/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(history.location.pathname).toBe(`/claims/${id}/edit`);
    expect(textbox('Merchant')).toHaveValue('Ibis');

    // the browser's own question, for closing the tab
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    await landedOn(history, /^\/claims\/(?!new$)([^/]+)$/);
    expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['merchant']).toBeNull();

    // a saved form leaves without asking
    history.push(`/claims/${id}/edit`);
    await user.type(await screen.findByRole('textbox', { name: 'Merchant' }), 'Ibis');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await landedOn(history, /^\/claims\/(?!new$)([^/]+)$/);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await w.api('ann', 'GET', `/api/claims/${id}`)).body['merchant']).toBe('Ibis');
  });

  it('asks before the back button loses unsaved changes', async () => {
    const { w } = await claimsWorld();
    const claim = await w.api('ann', 'POST', '/api/claims', {
      title: 'Hotel',
      amount: '20.00',
      spentOn: '2026-02-20',
    });
    const id = String(claim.body['id']);
    const { user, history } = renderApp(w, { as: 'ann', path: '/my-claims' });
    await screen.findByRole('heading', { name: 'My claims' });
    await act(() => history.push(`/claims/${id}/edit`));
    await user.type(await screen.findByRole('textbox', { name: 'Merchant' }), 'Ibis');

    await act(() => history.go(-1));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(history.location.pathname).toBe(`/claims/${id}/edit`);
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(textbox('Merchant')).toHaveValue('Ibis');

    await act(() => history.go(-1));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    await screen.findByRole('heading', { name: 'My claims' });
    expect(history.location.pathname).toBe('/my-claims');
  });

  it('refuses a record the user may not update, and says when a record does not exist', async () => {
    const { w } = await claimsWorld();
    const claim = await w.api('ann', 'POST', '/api/claims', {
      title: 'Train',
      amount: '20.00',
      spentOn: '2026-02-20',
    });
    const id = String(claim.body['id']);
    const submitted = await w.api(
      'ann',
      'POST',
      `/api/claims/${id}/transitions/submit`,
      {},
      { 'if-match': '"1"' },
    );
    expect(submitted.status).toBe(200);
    const first = renderApp(w, { as: 'ann', path: `/claims/${id}/edit` });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    first.unmount();

    renderApp(w, { as: 'ann', path: '/claims/01900000-0000-7000-8000-000000000000/edit' });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByText('This claim does not exist or you may not see it.')).toBeInTheDocument();
  });
});
