import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, world } from './harness';

configure({ asyncUtilTimeout: 10_000 });

/** The orders example with a salesperson, a customer, and an order of two lines. */
async function ordersWorld() {
  const w = await world('orders.md');
  await w.user('sam', ['sales']);
  const customer = await w.api('sam', 'POST', '/api/customers', { name: 'Acme', email: 'buy@acme.example' });
  const order = await w.api('sam', 'POST', '/api/orders', { number: 'O1001', customer: customer.body['id'] });
  const id = String(order.body['id']);
  await w.api('sam', 'POST', '/api/order-lines', {
    order: id,
    article: 'Bolt',
    quantity: 3,
    unitPrice: '2.50',
  });
  await w.api('sam', 'POST', '/api/order-lines', {
    order: id,
    article: 'Nut',
    quantity: 1,
    unitPrice: '0.25',
  });
  return { w, id };
}

describe('computed values in the app', () => {
  it('shows an order’s computed total and line count on its page, and offers no input for them', async () => {
    const { w, id } = await ordersWorld();
    renderApp(w, { as: 'sam', path: `/orders/${id}` });
    const main = await screen.findByRole('main');
    expect(await within(main).findByText('€7.75')).toBeTruthy();
    expect(within(main).getByText('2')).toBeTruthy();
    expect(within(main).queryByRole('textbox', { name: /^Total/ })).toBeNull();
  });

  it('has no input for a line’s computed amount on the new line form', async () => {
    const { w } = await ordersWorld();
    renderApp(w, { as: 'sam', path: '/order-lines/new' });
    expect(await screen.findByRole('textbox', { name: /^Article/ })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Amount/ })).toBeNull();
    expect(screen.queryByText(/^Amount/)).toBeNull();
  });
});
