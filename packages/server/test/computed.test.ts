/**
 * Computed values over HTTP, on every database (decision 0045), with the orders example: a line's
 * amount is its quantity times its unit price; an order's total and line count follow its lines
 * after every kind of line write (create, update, a move to another order, delete) and after the
 * order's own writes; lists sort and filter on them; a rule on the total refuses the line that would
 * break it and writes nothing; and no write may set a computed value.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, problem } from '@ninefold/testkit';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: computed values`, () => {
    let world: World;
    let sam: Client;
    let customer: string;
    let number = 1000;

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'orders.md', { sam: ['sales'], walt: ['warehouse'] });
      sam = world.as['sam']!;
      const c = await sam.post('/api/customers', { name: 'Acme', email: 'buy@acme.example' });
      expect(c.statusCode).toBe(201);
      customer = String(body(c)['id']);
    });

    const newOrder = async (): Promise<Json> => {
      const r = await sam.post('/api/orders', { number: `O${++number}`, customer });
      expect(r.statusCode, r.body).toBe(201);
      return body(r);
    };
    const addLine = async (order: Json, quantity: number, unitPrice: string) => {
      const r = await sam.post('/api/order-lines', {
        order: order['id'],
        article: 'Bolt',
        quantity,
        unitPrice,
      });
      expect(r.statusCode, r.body).toBe(201);
      return body(r);
    };
    const read = async (resource: string, record: Json) =>
      body(await sam.get(`/api/${resource}/${String(record['id'])}`));

    it('computes a line’s amount on create and on update', async () => {
      const order = await newOrder();
      const line = await addLine(order, 3, '2.50');
      expect(line['amount']).toBe('7.50');
      const changed = await sam.patch(`/api/order-lines/${String(line['id'])}`, { quantity: 4 }, 1);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(body(changed)['amount']).toBe('10.00');
    });

    it('starts an order with a total of 0 and no lines', async () => {
      const order = await newOrder();
      expect(order).toMatchObject({ total: '0.00', lineCount: 0 });
    });

    it('keeps the total and the count after a line is created, changed and deleted', async () => {
      const order = await newOrder();
      const a = await addLine(order, 2, '10.00');
      expect(await read('orders', order)).toMatchObject({ total: '20.00', lineCount: 1 });
      await addLine(order, 1, '0.10');
      expect(await read('orders', order)).toMatchObject({ total: '20.10', lineCount: 2 });
      const patched = await sam.patch(`/api/order-lines/${String(a['id'])}`, { unitPrice: '11.00' }, 1);
      expect(patched.statusCode).toBe(200);
      expect(await read('orders', order)).toMatchObject({ total: '22.10', lineCount: 2 });
      const removed = await sam.request('DELETE', `/api/order-lines/${String(a['id'])}`);
      expect(removed.statusCode).toBe(204);
      expect(await read('orders', order)).toMatchObject({ total: '0.10', lineCount: 1 });
    });

    it('moves a line’s amount from one order to the other when the line changes order', async () => {
      const from = await newOrder();
      const to = await newOrder();
      const line = await addLine(from, 5, '3.00');
      await addLine(to, 1, '1.00');
      const moved = await sam.patch(`/api/order-lines/${String(line['id'])}`, { order: to['id'] }, 1);
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await read('orders', from)).toMatchObject({ total: '0.00', lineCount: 0 });
      expect(await read('orders', to)).toMatchObject({ total: '16.00', lineCount: 2 });
    });

    it('gives the parent a new version when a child changes its values', async () => {
      const order = await newOrder();
      await addLine(order, 1, '1.00');
      const after = await read('orders', order);
      expect(Number(after['version'])).toBe(Number(order['version']) + 1);
      // a stale edit of the order is refused: its total is no longer what the editor saw
      const stale = await sam.patch(
        `/api/orders/${String(order['id'])}`,
        { note: 'x' },
        Number(order['version']),
      );
      expect(stale.statusCode).toBe(409);
    });

    it('keeps the values through the order’s own transition', async () => {
      const order = await newOrder();
      await addLine(order, 2, '4.00');
      const fresh = await read('orders', order);
      const placed = await sam.fire(`/api/orders/${String(order['id'])}`, 'place', Number(fresh['version']));
      expect(placed.statusCode, placed.body).toBe(200);
      expect(body(placed)).toMatchObject({ state: 'placed', total: '8.00', lineCount: 1 });
    });

    it('checks a rule that reads a computed value on the order’s own transition', async () => {
      const empty = await newOrder();
      const refused = await sam.fire(`/api/orders/${String(empty['id'])}`, 'place', Number(empty['version']));
      expect(refused.statusCode).toBe(422);
      expect(problem(refused).code).toBe('E_ORDER_EMPTY');
    });

    it('adds money exactly', async () => {
      const order = await newOrder();
      for (let i = 0; i < 10; i++) await addLine(order, 1, '0.10');
      await addLine(order, 3, '0.07');
      expect(await read('orders', order)).toMatchObject({ total: '1.21', lineCount: 11 });
    });

    it('refuses a line that would take the total over MAX_ORDER, and writes nothing', async () => {
      const order = await newOrder();
      const line = await addLine(order, 1, '49999.00');
      const before = await read('orders', order);
      const lines = await world.count('order-lines');
      const history = await world.historyCount();

      const added = await sam.post('/api/order-lines', {
        order: order['id'],
        article: 'Crane',
        quantity: 1,
        unitPrice: '2.00',
      });
      expect(added.statusCode).toBe(422);
      expect(problem(added).code).toBe('E_ORDER_TOO_LARGE');

      const raised = await sam.patch(`/api/order-lines/${String(line['id'])}`, { quantity: 2 }, 1);
      expect(raised.statusCode).toBe(422);
      expect(problem(raised).code).toBe('E_ORDER_TOO_LARGE');

      const other = await newOrder();
      const big = await addLine(other, 1, '10.00');
      const moved = await sam.patch(`/api/order-lines/${String(big['id'])}`, { order: order['id'] }, 1);
      expect(moved.statusCode).toBe(422);

      expect(await read('orders', order)).toEqual(before);
      expect(await read('order-lines', big)).toMatchObject({ order: other['id'] });
      expect(await world.count('order-lines')).toBe(lines + 1); // the other order's line only
      expect(await world.historyCount()).toBe(history + 2); // the other order and its line only
    });

    it('never accepts a computed value in a write', async () => {
      const order = await newOrder();
      const created = await sam.post('/api/orders', { number: `O${++number}`, customer, total: '1.00' });
      expect(created.statusCode).toBe(422);
      expect(problem(created).errors).toMatchObject([{ field: 'total', code: 'E_READONLY_FIELD' }]);
      const patched = await sam.patch(`/api/orders/${String(order['id'])}`, { lineCount: 7 }, 1);
      expect(patched.statusCode).toBe(422);
      expect(problem(patched).errors).toMatchObject([{ field: 'lineCount', code: 'E_READONLY_FIELD' }]);
      const line = await sam.post('/api/order-lines', {
        order: order['id'],
        article: 'Nut',
        quantity: 1,
        unitPrice: '1.00',
        amount: '0.01',
      });
      expect(line.statusCode).toBe(422);
      expect(problem(line).errors).toMatchObject([{ field: 'amount', code: 'E_READONLY_FIELD' }]);
    });

    it('sorts and filters lists on computed values', async () => {
      const small = await newOrder();
      await addLine(small, 1, '700.00');
      const large = await newOrder();
      await addLine(large, 1, '900.00');
      await addLine(large, 1, '1.00');
      const sorted = body(await sam.get('/api/orders?sort=-total&limit=2'))['data'] as Json[];
      expect(sorted.map((o) => o['id'])).toEqual([expect.any(String), expect.any(String)]);
      const totals = sorted.map((o) => Number(o['total']));
      expect(totals[0]).toBeGreaterThanOrEqual(totals[1]!);
      const filtered = body(await sam.get('/api/orders?total[gte]=700&total[lte]=901&lineCount=2'))[
        'data'
      ] as Json[];
      expect(filtered.map((o) => o['id'])).toEqual([large['id']]);
    });
  });
}
