/**
 * CSV export in words and in raw values (decision 0065), on SQLite and PostgreSQL through the real
 * server: by default a state shows its label, an enum value and a boolean their words, a ref the
 * referenced record's name (or "(hidden)" when the reader may not see it), money and dates the
 * product's locale, the server's own words (yes, the state column) in its language (German here); `format=csv-raw` writes the stored values and the ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF, DIALECTS, checkedInject, givenUser, login, specModel, testServer } from '@ninefold/testkit';
import { type Json } from './world.js';

const SPEC = `
product: { name: Shop, locale: de-DE }
entities:
  Person: { fields: { firstName: string, lastName: string } }
  Secret: { fields: { name: string } }
  Order:
    fields:
      number: { type: integer, required: true }
      kind: { type: enum, values: [walkIn, online] }
      paid: boolean
      total: { type: money, currency: EUR }
      dueOn: date
      customer: { type: ref, to: Person }
      vault: { type: ref, to: Secret }
states:
  Order:
    initial: draft
    states: { draft: { label: Being written }, sent: {} }
    transitions:
      send: { from: draft, to: sent }
roles:
  clerk:
    Order: true
    Person: true
  keeper:
    Secret: true
    Order: true
    Person: true
`;

/** The lines of a CSV answer, each split into its cells (RFC 4180 quotes undone). */
function table(body: string): string[][] {
  return body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => unquote(m[1] ?? '')),
    );
}

function unquote(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: CSV export`, () => {
    const model = specModel(SPEC);
    let server: Awaited<ReturnType<typeof testServer>>;
    let cookie = '';
    let order: Json;

    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      checkedInject(server.app, model, {
        method,
        url,
        headers: { ...CSRF, cookie },
        ...(payload === undefined ? {} : { payload }),
      });

    beforeAll(async () => {
      server = await testServer(dialect, model);
      await givenUser(server, 'clerk@example.com', ['clerk']);
      await givenUser(server, 'keeper@example.com', ['keeper']);
      const keeper = (await login(server.app, 'keeper@example.com')).cookie ?? '';
      const vault = await checkedInject(server.app, model, {
        method: 'POST',
        url: '/api/secrets',
        headers: { ...CSRF, cookie: keeper },
        payload: { name: 'Vault 13' },
      });
      expect(vault.statusCode, vault.body).toBe(201);
      // the keeper writes the order, whose vault the clerk may not see
      cookie = keeper;
      const person = await call('POST', '/api/persons', { firstName: 'Ada', lastName: 'Lovelace' });
      expect(person.statusCode, person.body).toBe(201);
      const created = await call('POST', '/api/orders', {
        number: 42,
        kind: 'walkIn',
        paid: true,
        total: '1234.5',
        dueOn: '2026-03-01',
        customer: person.json<Json>()['id'],
        vault: vault.json<Json>()['id'],
      });
      expect(created.statusCode, created.body).toBe(201);
      order = created.json<Json>();
      cookie = (await login(server.app, 'clerk@example.com')).cookie ?? '';
    });
    afterAll(() => undefined);

    it('writes labels, names, money and dates in the product’s locale, and no id', async () => {
      const response = await call('GET', '/api/orders?format=csv');
      expect(response.statusCode).toBe(200);
      const [header = [], row = [], ...rest] = table(response.body);
      expect(rest).toEqual([]);
      const cell = (label: string) => row[header.indexOf(label)];
      expect(header).not.toContain('Id');
      expect(cell('Status')).toBe('Being written');
      expect(cell('Kind')).toBe('Walk in');
      expect(cell('Paid')).toBe('Ja');
      expect(cell('Total')).toBe('1.234,50\u00a0€');
      expect(cell('Due on')).toBe('01.03.2026');
      expect(cell('Customer')).toBe('Ada Lovelace');
      // the clerk may not read secrets: the ref is hidden, never its id
      expect(cell('Vault')).toBe('(verborgen)');
      expect(response.body).not.toContain(String(order['id']));
      expect(response.body).not.toContain(String(order['customer']));
    });

    it('writes the stored values and ids as its second choice', async () => {
      const response = await call('GET', '/api/orders?format=csv-raw');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/-raw\.csv"$/);
      const [header = [], row = []] = table(response.body);
      const cell = (label: string) => row[header.indexOf(label)];
      expect(cell('Id')).toBe(order['id']);
      expect(cell('State')).toBe('draft');
      expect(cell('Kind')).toBe('walkIn');
      expect(cell('Paid')).toBe('true');
      expect(cell('Total')).toBe('1234.50');
      expect(cell('Due on')).toBe('2026-03-01');
      expect(cell('Customer')).toBe(order['customer']);
    });
  });
}
