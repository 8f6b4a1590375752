/**
 * Two-step sign-in in the app against the real server (decision 0041): the account section turns
 * it on with a code computed by `otpauth` at the server's clock, shows the recovery codes once and
 * turns it off with the password; the sign-in page asks for a code after the password, and takes a
 * recovery code instead.
 */
import { type MfaEnrolment, type RecoveryCodesAnswer } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { PASSWORD, renderApp, world, type World } from './harness';

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
});
