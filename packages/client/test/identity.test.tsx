/**
 * The identity pages against the real server in-process (decision 0040): the strength meter's
 * readings, the one-time link page (the token taken out of the address, the server's refusal of a
 * common password shown beside the field, a used link said plainly), the sign-in page's ways to a
 * new password and a new account, and the account and tokens pages shown by the rules the server
 * applies; ten minutes after signing in, ending a session asks to confirm it's you (decision 0042).
 */
import { INVITATION_KEY, type InvitationAnswer, type Model } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import { PASSWORD, login } from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';
import { STRENGTH_TEXT, loadStrengthEstimator, passwordStrength } from '../src/identity/password-strength';
import { modelOf, openUserMenu, renderApp, world } from './harness';

/** The expense claims with `auth:` as a spec would set it. */
function claimsWith(auth: Partial<Model['auth']>): Model {
  const model = modelOf('expense-claims.md');
  return { ...model, auth: { ...model.auth, ...auth } };
}

/** The model the server gives a visitor. */
async function visitorModel(w: Awaited<ReturnType<typeof world>>): Promise<Model> {
  return (await w.api('nobody', 'GET', '/api/model')).body as unknown as Model;
}

describe('the password strength meter', () => {
  it('says what is wrong in words, flags a common password, and asks for 15 characters before "Strong"', async () => {
    expect(passwordStrength('')?.verdict).toBe(STRENGTH_TEXT.empty);
    expect(passwordStrength('short')).toMatchObject({ verdict: STRENGTH_TEXT.tooShort, refused: true });
    expect(passwordStrength('x'.repeat(129))).toMatchObject({
      verdict: STRENGTH_TEXT.tooLong,
      refused: true,
    });
    await loadStrengthEstimator();
    expect(passwordStrength('password')).toMatchObject({ verdict: STRENGTH_TEXT.common, refused: true });
    expect(passwordStrength('qwerty123')).toMatchObject({ verdict: STRENGTH_TEXT.common, refused: true });
    // a hard one, but shorter than 15: never more than "fair"
    expect(passwordStrength('k#9Tq!vZ2m')?.verdict).toBe(STRENGTH_TEXT.fair);
    expect(passwordStrength('violet harbour lantern 42')?.verdict).toBe(STRENGTH_TEXT.strong);
    // built on the person's name or address, or the product's name: refused, as the server refuses it
    expect(passwordStrength('Ann.Lee2024!', ['Ann Lee', 'ann.lee@example.com'])).toMatchObject({
      verdict: STRENGTH_TEXT.context,
      refused: true,
    });
    expect(passwordStrength('expenseclaims1', ['Expense claims'])?.verdict).toBe(STRENGTH_TEXT.context);
  });
});

describe('the one-time link page', () => {
  it('takes the token out of the address, shows the server’s refusal, signs the invitee in, and then says the link was used', async () => {
    const w = await world(claimsWith({}));
    await w.user('ada', ['admin', 'employee']);
    const created = await w.api('ada', 'POST', '/api/users', {
      name: 'Ivo Invited',
      email: 'ivo@example.com',
      roles: ['employee'],
    });
    expect(created.status).toBe(201);
    const invitation = created.body[INVITATION_KEY] as InvitationAnswer;
    expect(invitation.mailed).toBe(false);
    const link = new URL(invitation.link!);
    const model = await visitorModel(w);

    const { user, history, jar, unmount } = renderApp(w, { path: `${link.pathname}${link.hash}`, model });
    expect(await screen.findByRole('heading', { name: 'Welcome, set your password' })).toBeInTheDocument();
    expect(history.location.hash).toBe('');
    expect(screen.getByTestId('link-email')).toHaveTextContent('ivo@example.com');

    const field = screen.getByLabelText(/^New password/, { selector: 'input' });
    await user.type(field, 'letmein1');
    // the server is the authority: its refusal of a common password shows beside the field
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(
      await screen.findByText('This password is one of the most common ones. Choose another.'),
    ).toBeInTheDocument();
    expect(jar.cookie).toBeUndefined();

    await user.clear(field);
    await user.type(field, 'violet harbour lantern 42');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await waitFor(() => expect(jar.cookie).toBeDefined());
    // signed in on the visitor's model: the page loads again for the whole one
    expect(await screen.findByLabelText('Loading')).toBeInTheDocument();
    unmount();

    // the same link again, in another browser: used, said plainly
    renderApp(w, { path: `${link.pathname}${link.hash}`, model });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-code', 'E_LINK_USED');
    expect(alert).toHaveTextContent('This link has already been used.');
  });

  it('says plainly that a link is not valid, and offers a new password link', async () => {
    const w = await world(claimsWith({}));
    const model = await visitorModel(w);
    renderApp(w, { path: '/link#token=not-a-real-token-at-all', model });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-code', 'E_LINK_INVALID');
    expect(alert).toHaveTextContent('This link is not valid.');
    expect(screen.getByRole('link', { name: 'Ask for a new password link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    // sign-up is not open here: no way to it
    expect(screen.queryByRole('link', { name: 'Sign up again' })).toBeNull();
  });
});

describe('the sign-in page', () => {
  it('offers a new password by default, and an account only when sign-up is open', async () => {
    const closed = await world(claimsWith({}));
    const first = renderApp(closed, { path: '/sign-in', model: await visitorModel(closed) });
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    first.unmount();

    const open = await world(claimsWith({ signUp: 'employee', passwordReset: false }));
    const second = renderApp(open, { path: '/sign-in', model: await visitorModel(open) });
    await second.user.click(await screen.findByRole('link', { name: 'Create an account' }));
    expect(second.history.location.pathname).toBe('/sign-up');
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();

    // the same answer whatever the address: here, one that is taken
    await open.user('taken', ['employee']);
    await second.user.type(await screen.findByLabelText(/^Your name/, { selector: 'input' }), 'Someone');
    await second.user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'taken@example.com');
    await second.user.type(
      screen.getByLabelText(/^Password/, { selector: 'input' }),
      'amber canyon pebble 55',
    );
    await second.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Check your mail' })).toBeInTheDocument();
  });
});

describe('the account and tokens pages', () => {
  it('are reached from the user menu; the tokens page only by a role that may hold tokens', async () => {
    const w = await world(claimsWith({ tokens: ['finance'] }));
    await w.user('emma', ['employee']);
    const { user, history } = renderApp(w, { as: 'emma', path: '/my-claims' });
    await openUserMenu(user, 'emma');
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'API tokens' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Invitations' })).toBeNull();
    await user.click(within(menu).getByRole('menuitem', { name: 'Your account' }));
    expect(history.location.pathname).toBe('/account');
    expect(await screen.findByRole('heading', { name: 'Your account', level: 1 })).toBeInTheDocument();
    // this session, on this device
    const sessions = await screen.findByRole('table', { name: 'Sessions' });
    await waitFor(() => expect(within(sessions).getAllByText('This device')).toHaveLength(1));
    // the profile: the User record's fields the role may read, not editable by an employee
    expect(await screen.findByText(/Your role may not change your profile/)).toBeInTheDocument();

    history.push('/account/tokens');
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
  });
});

describe('confirming it’s you', () => {
  it('asks for the password when a session ends ten minutes after sign-in, then ends it; the e-mail changes on its own form', async () => {
    const w = await world(claimsWith({}));
    const ada = await w.user('ada', ['admin', 'employee']);
    // a second session of Ada's, elsewhere
    await login(w.server.app, ada.email);
    const { user } = renderApp(w, { as: 'ada', path: '/account' });
    const sessions = await screen.findByRole('table', { name: 'Sessions' });
    await waitFor(() => expect(within(sessions).getAllByTestId('session-row')).toHaveLength(2));
    // the profile form shows the e-mail, but does not edit it: its own form does
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toBeDisabled();
    expect(screen.getByTestId('account-email')).toHaveTextContent(ada.email);

    w.server.clock.advance(11 * 60_000);
    const other = within(sessions)
      .getAllByTestId('session-row')
      .find((row) => within(row).queryByText('This device') === null)!;
    await user.click(within(other).getByRole('button', { name: /^End/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    const password = await within(dialog).findByLabelText(/^Password/, { selector: 'input' });
    await user.type(password, 'not my password');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The current password is not correct.')).toBeInTheDocument();
    expect(within(sessions).getAllByTestId('session-row')).toHaveLength(2);

    await user.clear(password);
    await user.type(password, PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // the change was made again once confirmed
    await waitFor(() => expect(within(sessions).getAllByTestId('session-row')).toHaveLength(1));

    // within ten minutes of the confirmation, the e-mail changes without asking again
    await user.type(screen.getByLabelText(/^New e-mail address/), 'Ada.New@Example.com');
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByText(/Your e-mail address is changed/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('account-email')).toHaveTextContent('ada.new@example.com'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before making an API token ten minutes after sign-in, and shows the token once confirmed', async () => {
    const w = await world(claimsWith({ tokens: ['employee'] }));
    await w.user('emma', ['employee']);
    const { user } = renderApp(w, { as: 'emma', path: '/account/tokens' });
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    w.server.clock.advance(11 * 60_000);
    await user.type(name, 'Nightly export');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    // no token yet, and no error above the form: the dialog asks instead
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(await within(dialog).findByLabelText(/^Password/, { selector: 'input' }), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Your new token' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await w.api('emma', 'GET', '/api/tokens')).body['data']).toHaveLength(1);
  });
});
