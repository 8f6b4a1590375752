/**
 * Records are named, never shown by their ids (decision 0065): a ref column, a detail page's title
 * and a ref picker show the referenced record's composed name; a list of an entity with states shows
 * its state, and a screen that names its columns without the state lets the reader add it; the
 * export offers CSV in words and CSV of raw values.
 */
import { specModel } from '@ninefold/testkit';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { type World, renderApp, world } from './harness';

const SPEC = `
product: { name: Visits, locale: en-GB }
entities:
  Person: { fields: { firstName: { type: string, required: true }, lastName: string } }
  Visit:
    fields:
      number: { type: integer, required: true }
      host: { type: ref, to: Person }
states:
  Visit:
    initial: planned
    states: { planned: { label: Booked }, done: {} }
    transitions:
      finish: { from: planned, to: done }
screens:
  visits: { kind: list, entity: Visit, path: /visits, columns: [number, host], actions: [create, export] }
  visit: { kind: detail, entity: Visit, path: "/visits/:id" }
  newVisit: { kind: create, entity: Visit, path: /visits/new }
  editVisit: { kind: edit, entity: Visit, path: "/visits/:id/edit" }
  people: { kind: list, entity: Person, path: /people }
  person: { kind: detail, entity: Person, path: "/people/:id" }
roles:
  user: { Person: true, Visit: true }
`;

let w: World;
let ada = '';
let visit = '';

beforeAll(async () => {
  w = await world(specModel(SPEC));
  await w.user('ann', ['user']);
  const person = await w.api('ann', 'POST', '/api/persons', { firstName: 'Ada', lastName: 'Lovelace' });
  expect(person.status, JSON.stringify(person.body)).toBe(201);
  ada = String(person.body['id']);
  const created = await w.api('ann', 'POST', '/api/visits', { number: 7, host: ada });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  visit = String(created.body['id']);
}, 60_000);

describe('a record’s name', () => {
  it('shows in a ref column as the referenced record’s name, not its id', async () => {
    renderApp(w, { as: 'ann', path: '/visits' });
    const link = await screen.findByRole('link', { name: 'Ada Lovelace' }, { timeout: 10_000 });
    expect(link).toHaveAttribute('href', `/people/${ada}`);
    const table = screen.getByRole('table');
    expect(table.textContent).not.toContain(ada);
    expect(table.textContent).not.toContain(visit);
    // a visit has no name of its own: it is named by its label and its number
    expect(within(table).getByRole('link', { name: 'Visit 7' })).toHaveAttribute('href', `/visits/${visit}`);
  }, 60_000);

  it('titles a detail page, and the browser tab, by the name', async () => {
    renderApp(w, { as: 'ann', path: `/people/${ada}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toContain('Ada Lovelace'));
    expect(document.title).not.toContain(ada);
  }, 60_000);

  it('shows in a picker, chosen and among the options, by the name', async () => {
    const { user } = renderApp(w, { as: 'ann', path: `/visits/${visit}/edit` });
    const picker = await screen.findByRole('combobox', { name: 'Host' }, { timeout: 10_000 });
    await waitFor(() => expect(picker).toHaveValue('Ada Lovelace'));
    await user.clear(picker);
    await user.type(picker, 'Ad');
    expect(
      await screen.findByRole('option', { name: 'Ada Lovelace' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: ada })).toBeNull();
  }, 60_000);
});

describe('a list of an entity with states', () => {
  it('shows the state in a generated list', async () => {
    const generated = specModel(SPEC.replace(/screens:[\s\S]*?roles:/, 'roles:'));
    const v = await world(generated);
    await v.user('ann', ['user']);
    await v.api('ann', 'POST', '/api/visits', { number: 8 });
    renderApp(v, { as: 'ann', path: '/visits' });
    expect(
      await screen.findByRole('columnheader', { name: 'State' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getByText('Booked')).toBeInTheDocument();
  }, 60_000);

  it('lets the column chooser add the state when the screen’s columns leave it out', async () => {
    localStorage.clear();
    const { user } = renderApp(w, { as: 'ann', path: '/visits' });
    await screen.findByRole('link', { name: 'Visit 7' }, { timeout: 10_000 });
    expect(screen.queryByRole('columnheader', { name: 'State' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const state = await screen.findByRole('checkbox', { name: 'State' }, { timeout: 10_000 });
    expect(state).not.toBeChecked();
    await user.click(state);
    expect(await screen.findByRole('columnheader', { name: 'State' })).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getByText('Booked')).toBeInTheDocument();
  }, 60_000);
});

describe('the export', () => {
  it('offers CSV in words and CSV of raw values', async () => {
    const { user } = renderApp(w, { as: 'ann', path: '/visits' });
    await screen.findByRole('link', { name: 'Visit 7' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const words = await screen.findByRole('menuitem', { name: 'CSV' });
    const raw = screen.getByRole('menuitem', { name: 'CSV (raw values)' });
    const get = async (href: string) =>
      (
        await w.server.app.inject({
          method: 'GET',
          url: href,
          headers: { cookie: w.users['ann']?.cookie ?? '' },
        })
      ).body;
    const inWords = await get(words.getAttribute('href') ?? '');
    expect(inWords).toContain('Ada Lovelace');
    expect(inWords).toContain('Booked');
    expect(inWords).not.toContain(ada);
    const rawValues = await get(raw.getAttribute('href') ?? '');
    expect(rawValues).toContain(ada);
    expect(rawValues).toContain('planned');
  }, 60_000);
});
