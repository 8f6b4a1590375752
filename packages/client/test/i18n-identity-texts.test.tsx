import { type MfaEnrolment } from '@ninefold/model';
import { screen, within } from '@testing-library/react';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD, modelOf, renderApp, world } from './harness';

/**
 * The identity and account pages speak the reader's language (decision 0067): their words come from
 * the `identity` and `account` catalogues, the person's data (e-mail, name) stays as it is.
 */
afterEach(() => {
  localStorage.clear();
  document.documentElement.lang = '';
  document.documentElement.dir = '';
});

describe('identity pages in the reader’s language', () => {
  it('shows the sign-in page in French', async () => {
    const w = await world(modelOf('expense-claims.md'));
    renderApp(w, { path: '/sign-in', locale: 'fr-FR' });
    expect(await screen.findByLabelText(/^Mot de passe/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^E-mail/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
  });

  it('shows the account page, its sessions and the password meter in Japanese', async () => {
    const w = await world(modelOf('expense-claims.md'));
    await w.user('ann', ['employee']);
    renderApp(w, { as: 'ann', path: '/account', locale: 'ja' });
    expect(await screen.findByRole('heading', { level: 1, name: 'アカウント' })).toBeInTheDocument();
    const sessions = await screen.findByRole('table', { name: 'セッション' });
    expect(within(sessions).getByText('このデバイス')).toBeInTheDocument();
    expect(within(sessions).getByRole('columnheader', { name: 'ブラウザー' })).toBeInTheDocument();
    expect(await screen.findByTestId('password-verdict')).toHaveTextContent(/^\d+ 文字以上にしてください。/);
  });

  it('counts the recovery codes left with Arabic plurals', async () => {
    const w = await world(modelOf('expense-claims.md'));
    await w.user('ann', ['employee']);
    const started = await w.api('ann', 'POST', '/api/account/mfa', { currentPassword: PASSWORD });
    const { secret } = started.body as unknown as MfaEnrolment;
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const code = totp.generate({ timestamp: w.server.clock.now().getTime() });
    expect((await w.api('ann', 'POST', '/api/account/mfa/confirm', { code })).status).toBe(200);
    renderApp(w, { as: 'ann', path: '/account/two-step', locale: 'ar' });
    expect(await screen.findByRole('heading', { level: 1, name: 'الأمان' })).toBeInTheDocument();
    // ten is "few" in Arabic: its own form of the noun and verb, not English's "codes are left"
    const section = await screen.findByTestId('two-step-section');
    expect(await within(section).findByText(/تبقّت (10|١٠) رموز استرداد\./)).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'إيقاف' })).toBeInTheDocument();
  });
});
