/**
 * The app on the model a signed-out visitor gets (decision 0027): the pages before sign-in work
 * with it, and signing in loads the page again for the whole model rather than showing screens
 * the app does not know.
 */
import { screen, waitFor } from '@testing-library/react';
import { type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { PASSWORD, renderApp, world } from './harness';

describe('the app before sign-in', () => {
  it('signs in on the signed-out model, then loads the page again for the whole one', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    // the model as the server answers a visitor
    const visitor = await w.api('nobody', 'GET', '/api/model');
    const model = visitor.body as unknown as Model;
    expect(model.signedOut).toBe(true);
    expect(model.screens).toEqual([]);

    const { user, history, jar } = renderApp(w, { path: '/my-claims', model });
    // a screen the visitor's model does not know: sign-in first, remembering where they were
    await user.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'ann@example.com');
    expect(history.location.pathname).toBe('/sign-in');
    expect(history.location.search).toBe('?next=%2Fmy-claims');
    expect(screen.getByRole('heading', { name: 'Expense claims', level: 1 })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // signed in: the app waits for the page of the whole model (a full load), not a not-found page
    await waitFor(() => expect(jar.cookie).toBeDefined());
    expect(await screen.findByLabelText('Loading')).toBeInTheDocument();
    expect(screen.queryByText(/not found/i)).toBeNull();
    expect(history.location.pathname).toBe('/sign-in');
  });

  it('shows help and about from the signed-out model', async () => {
    const w = await world('seed.txt');
    const model = (await w.api('nobody', 'GET', '/api/model')).body as unknown as Model;
    renderApp(w, { path: '/about', model });
    expect(await screen.findByRole('heading', { name: 'About this app', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('unspecified-summary')).toBeInTheDocument();
  });
});
