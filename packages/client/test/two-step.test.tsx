/**
 * Two-step sign-in in the app against the real server (decision 0041): the account section turns
 * it on with a code computed by `otpauth` at the server's clock, shows the recovery codes once and
 * turns it off with the password; the sign-in page asks for a code after the password, and takes a
 * recovery code instead. Where the spec requires it (`auth.mfa`), the sign-in page and an
 * invitation's link page enrol first and show the recovery codes once before entering, and the
 * section offers no "Turn off".
 */
import {
  INVITATION_KEY,
  type EnrolledSessionAnswer,
  type InvitationAnswer,
  type MfaChallengeAnswer,
  type MfaEnrolment,
  type Model,
  type RecoveryCodesAnswer,
} from '@ninefold/model';
import { CSRF, givenUser, login, sessionCookie } from '@ninefold/testkit';
import { screen, waitFor, within } from '@testing-library/react';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { PASSWORD, modelOf, renderApp, world, type World } from './harness';

/** Expense claims where the users of a role (admins unless said) must use two-step sign-in. */
async function requiredWorld(role = 'admin'): Promise<World> {
  const model = modelOf('expense-claims.md');
  return world({ ...model, auth: { ...model.auth, mfa: { required: [role] } } });
}

const code = (w: World, secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: w.server.clock.now().getTime() });

/** A six-digit code no step near the server's clock shows. */
function wrongCode(w: World, secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const at = w.server.clock.now().getTime();
  const near = [-30_000, 0, 30_000].map((d) => totp.generate({ timestamp: at + d }));
  return ['000000', '111111', '222222'].find((c) => !near.includes(c))!;
}

describe('two-step sign-in in the app', () => {
  it('is turned on with the password and a code, shows the recovery codes once, and turns off', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const { user } = renderApp(w, { as: 'ann', path: '/account/two-step' });
    const section = await screen.findByRole('region', { name: 'Two-step sign-in' });
    await within(section).findByText('Off.');

    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    await user.type(within(section).getByLabelText(/^current password/i), PASSWORD);
    await user.click(within(section).getByRole('button', { name: 'Continue' }));
    const qr = await within(section).findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    const secret = within(section).getByTestId('two-step-key').textContent!.replace(/\s/g, '');
    const input = within(section).getByLabelText(/^authentication code/i);
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');

    await user.type(input, wrongCode(w, secret));
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    expect(await within(section).findByRole('alert')).toHaveAttribute('data-error-code', 'E_MFA_CODE');
    await user.clear(input);
    await user.type(input, code(w, secret));
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    const list = await within(section).findByTestId('recovery-codes');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(section).getByRole('button', { name: 'I have saved them' }));
    await within(section).findByText(/10 recovery codes are left\./);
    // shown once: nothing on the page shows them again
    expect(within(section).queryByTestId('recovery-codes')).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    await user.type(within(section).getByLabelText(/^current password/i), 'not the password');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByRole('alert')).toHaveAttribute('data-error-code', 'E_WRONG_PASSWORD');
    await user.clear(within(section).getByLabelText(/^current password/i));
    await user.type(within(section).getByLabelText(/^current password/i), PASSWORD);
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    await within(section).findByText('Off.');
    expect((await w.api('ann', 'GET', '/api/account/mfa')).body).toMatchObject({ enabled: false });
  });

  it('asks for a code after the password at sign-in, or a recovery code instead', async () => {
    const w = await world('expense-claims.md');
    await w.user('ann', ['employee']);
    const started = await w.api('ann', 'POST', '/api/account/mfa', { currentPassword: PASSWORD });
    const { secret } = started.body as unknown as MfaEnrolment;
    const confirmed = await w.api('ann', 'POST', '/api/account/mfa/confirm', { code: code(w, secret) });
    const { recoveryCodes } = confirmed.body as unknown as RecoveryCodesAnswer;
    w.server.clock.advance(30_000);

    const { user, jar } = renderApp(w, { path: '/sign-in' });
    await user.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'ann@example.com');
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Two-step sign-in' });
    expect(jar.cookie).toBeUndefined(); // no session before the code
    expect(screen.getByLabelText(/^authentication code/i)).toHaveAttribute('autocomplete', 'one-time-code');

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await user.type(screen.getByLabelText(/^recovery code/i), recoveryCodes[0]!);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(jar.cookie).toBeDefined());
  });

  it('where the spec requires it, enrols at sign-in and shows the recovery codes once before entering', async () => {
    const w = await requiredWorld();
    await givenUser(w.server, 'ada@example.com', ['admin']);
    const { user, jar, history } = renderApp(w, { path: '/sign-in' });
    await user.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^password/i, { selector: 'input' }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Set up two-step sign-in' });
    const qr = await screen.findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    const secret = screen.getByTestId('two-step-key').textContent!.replace(/\s/g, '');
    expect(jar.cookie).toBeUndefined(); // no session before the first code

    const input = screen.getByLabelText(/^authentication code/i);
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(input, wrongCode(w, secret));
    await user.click(screen.getByRole('button', { name: 'Turn on and sign in' }));
    expect(await screen.findByRole('alert')).toHaveAttribute('data-error-code', 'E_MFA_CODE');
    expect(jar.cookie).toBeUndefined();
    await user.clear(input);
    await user.type(input, code(w, secret));
    await user.click(screen.getByRole('button', { name: 'Turn on and sign in' }));

    const list = await screen.findByTestId('recovery-codes');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(jar.cookie).toBeDefined();
    // the app is entered only on "Continue", past the codes
    expect(screen.getByRole('heading', { name: 'Two-step sign-in is on' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/sign-in');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(history.location.pathname).not.toBe('/sign-in'));
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
    const status = await w.server.app.inject({
      method: 'GET',
      url: '/api/account/mfa',
      headers: { cookie: jar.cookie! },
    });
    expect(status.json()).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: true });
  });

  it('where the spec requires it, the section says so and offers no "Turn off"', async () => {
    const w = await requiredWorld();
    const ada = await givenUser(w.server, 'ada@example.com', ['admin']);
    const { response } = await login(w.server.app, 'ada@example.com');
    const { challenge } = response.json<MfaChallengeAnswer>().mfa;
    const enrol = await w.server.app.inject({
      method: 'POST',
      url: '/api/session/mfa/enrol',
      headers: CSRF,
      payload: { challenge },
    });
    const { secret } = enrol.json<MfaEnrolment>();
    const finished = await w.server.app.inject({
      method: 'POST',
      url: '/api/session/mfa',
      headers: CSRF,
      payload: { challenge, code: code(w, secret) },
    });
    expect(finished.json<EnrolledSessionAnswer>().recoveryCodes).toHaveLength(10);
    w.users['ada'] = { id: ada.id, cookie: sessionCookie(finished)!, email: 'ada@example.com' };

    renderApp(w, { as: 'ada', path: '/account/two-step' });
    const section = await screen.findByRole('region', { name: 'Two-step sign-in' });
    await within(section).findByText(/10 recovery codes are left\./);
    expect(within(section).getByTestId('two-step-required')).toHaveTextContent(
      'requires two-step sign-in for your account, so it cannot be turned off',
    );
    expect(within(section).queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'New recovery codes' })).toBeInTheDocument();
  });

  it('where the spec requires it, an invitee sets their password, then enrols before entering', async () => {
    const w = await requiredWorld('manager');
    await w.user('ada', ['admin', 'employee']);
    const created = await w.api('ada', 'POST', '/api/users', {
      name: 'Mia Manager',
      email: 'mia@example.com',
      roles: ['manager'],
    });
    const link = new URL((created.body[INVITATION_KEY] as InvitationAnswer).link!);
    const model = (await w.api('nobody', 'GET', '/api/model')).body as unknown as Model;

    const { user, jar } = renderApp(w, { path: `${link.pathname}${link.hash}`, model });
    await screen.findByRole('heading', { name: 'Welcome, set your password' });
    await user.type(
      screen.getByLabelText(/^New password/, { selector: 'input' }),
      'violet harbour lantern 42',
    );
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await screen.findByRole('heading', { name: 'Set up two-step sign-in' });
    expect(jar.cookie).toBeUndefined(); // the password is set, but no session before the factor
    const secret = (await screen.findByTestId('two-step-key')).textContent!.replace(/\s/g, '');
    await user.type(screen.getByLabelText(/^authentication code/i), code(w, secret));
    await user.click(screen.getByRole('button', { name: 'Turn on and sign in' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(jar.cookie).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // signed in on the visitor's model: the page loads again for the whole one
    expect(await screen.findByLabelText('Loading')).toBeInTheDocument();
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
  });
});
