import { screen, within, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PASSWORD, renderApp, world } from './harness';

describe('the shell', () => {
  it('signs in, lands on the first screen the role may open, and shows only its navigation', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { user, history } = renderApp(w, { path: '/' });

    // no session: sign-in, with the product's name
    await user.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'ann@example.com');
    expect(screen.getByRole('heading', { name: 'Expense claims', level: 1 })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await screen.findByRole('navigation', { name: 'Main' });
    // signing in goes to `next` (here /), whose redirect to the first screen follows a moment later
    await waitFor(() => expect(history.location.pathname).toBe('/my-claims'));
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: /My claims/ })).toBeInTheDocument();
    // an employee may not approve, pay or administer: those entries are not there
    expect(nav.queryByRole('link', { name: /To approve/ })).toBeNull();
    expect(nav.queryByRole('link', { name: /To pay/ })).toBeNull();
    expect(nav.queryByRole('link', { name: /People/ })).toBeNull();
  });

  it('refuses a screen the role may not open, and returns to where the user was after sign-in', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const signedIn = renderApp(w, { as: 'ann', path: '/payments' });
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    signedIn.unmount();

    const { user, history } = renderApp(w, { path: '/policy' });
    await screen.findByLabelText(/email/i);
    expect(history.location.search).toBe('?next=%2Fpolicy');
    await user.type(screen.getByLabelText(/^email/i, { selector: 'input' }), 'ann@example.com');
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is not correct.');
    await user.clear(screen.getByLabelText(/^password/i, { selector: 'input' }));
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Expense policy', level: 1 })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/policy');
  });

  it('shows the seed’s unspecified facets, each with what the app does instead', async () => {
    const w = await world('seed.txt');
    await w.user('sam', ['user']);
    // the page is the spec's author's; nobody lands on it (decision 0066), anyone may open it
    renderApp(w, { as: 'sam', path: '/about' });
    expect(await screen.findByRole('heading', { name: 'About this app' })).toBeInTheDocument();
    expect(screen.getByTestId('unspecified-summary')).toHaveTextContent(
      '9 of the nine sections are not specified',
    );
    for (const facet of Object.values(w.model.facets)) {
      const card = screen.getByRole('region', { name: `${facet.section}. ${facet.title}` });
      expect(card).toHaveTextContent(facet.defaultBehaviour);
    }
  });
});
