/**
 * The password policy (ASVS 5.0 V6.2): lengths in characters, the common list, context words, and
 * no composition rules — as `ninefold users add` and every flow that sets a password apply it.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { checkNewPassword, contextWords } from '../src/auth/password-policy.js';
import { addUser } from '../src/auth/users.js';
import { DIALECTS, login, specModel, testServer } from '@ninefold/testkit';

const codes = (password: string, context = {}) =>
  checkNewPassword(password, 'password', context).map((issue) => issue.code);

describe('the password policy', () => {
  it('counts characters, not bytes: eight emoji are eight characters', () => {
    expect(codes('🐴'.repeat(PASSWORD_MIN_LENGTH - 1))).toEqual(['E_TOO_SHORT']);
    expect(codes('🐴🦓🦄🐎🐴🦓🦄🐎')).toEqual([]);
  });

  it('accepts 64 characters and up to the maximum, and refuses one more', () => {
    expect(codes('x7'.repeat(32))).toEqual([]);
    expect(codes('a quiet river '.repeat(20).slice(0, PASSWORD_MAX_LENGTH))).toEqual([]);
    expect(codes('a quiet river '.repeat(20).slice(0, PASSWORD_MAX_LENGTH + 1))).toEqual(['E_TOO_LONG']);
  });

  it('refuses a common password whatever its case', () => {
    expect(codes('password123')).toEqual(['E_PASSWORD_COMMON']);
    expect(codes('PassWord123')).toEqual(['E_PASSWORD_COMMON']);
    expect(codes('iloveyou')).toEqual(['E_PASSWORD_COMMON']);
  });

  it('has no composition rules: lower-case words and spaces are a fine password', () => {
    expect(codes('purple mountain tea')).toEqual([]);
    expect(codes('zzzzzzzzzzzzzzzzq')).toEqual([]);
  });

  it('refuses a password built on the product’s name, the address or the name', () => {
    const context = { productName: 'Helpdesk', email: 'ann.lee@acme-widgets.com', name: 'Annabel Lee' };
    expect(codes('Helpdesk2024!', context)).toEqual(['E_PASSWORD_CONTEXT']);
    expect(codes('acme-widgets1', context)).toEqual(['E_PASSWORD_CONTEXT']);
    expect(codes('annabel1234', context)).toEqual(['E_PASSWORD_CONTEXT']);
    expect(codes('ninefold99', context)).toEqual(['E_PASSWORD_CONTEXT']);
    // a context word inside a long passphrase leaves enough else
    expect(codes('helpdesk is where the blue whales sing', context)).toEqual([]);
    expect(contextWords(context)).toEqual(
      expect.arrayContaining(['helpdesk', 'ninefold', 'ann.lee', 'acme-widgets', 'annabel', 'annabellee']),
    );
  });
});

describe.each(DIALECTS)('adding a user on %s', (dialect) => {
  it('applies the policy, with the product’s name and the user’s address as context', async () => {
    const server = await testServer(dialect, specModel('product: { name: Lighthouse }\n'));
    const add = (password: string) =>
      addUser(server.database, server.model, {
        email: 'kim@example.com',
        name: 'Kim',
        roles: ['user'],
        password,
      });
    await expect(add('lighthouse12')).rejects.toMatchObject({
      code: 'E_VALIDATION',
      errors: [{ field: 'password', code: 'E_PASSWORD_CONTEXT' }],
    });
    await expect(add('qwertyuiop')).rejects.toMatchObject({
      errors: [{ field: 'password', code: 'E_PASSWORD_COMMON' }],
    });
    await expect(add('a lantern over grey water')).resolves.toMatchObject({ email: 'kim@example.com' });
  });

  it('checks a password exactly as it was set: no trimming, no case folding, no truncation', async () => {
    // ASVS 5.0 6.2.8
    const server = await testServer(dialect, specModel('product: { name: Lighthouse }\n'));
    const password = '  Quiet Harbour  Lamps ' + 'ü'.repeat(100);
    await addUser(server.database, server.model, {
      email: 'kim@example.com',
      name: 'Kim',
      roles: ['user'],
      password,
    });
    const status = async (attempt: string) =>
      (await login(server.app, 'kim@example.com', attempt)).response.statusCode;
    // the right one first: four wrong ones after it stay within the sign-in limiter's free failures
    expect(await status(password)).toBe(200);
    expect(await status(password.trim())).toBe(401);
    expect(await status(password.toLowerCase())).toBe(401);
    expect(await status(password.slice(0, 72))).toBe(401);
    expect(await status(password.normalize('NFD'))).toBe(401);
  });
});
