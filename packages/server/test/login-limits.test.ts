/**
 * The sign-in limits of decision 0027: one address's wrong passwords never lock out the owner at
 * another; a client that keeps failing waits longer each time; one address's attempts stay limited.
 */
import { API_PATHS } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  PASSWORD,
  problem,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';
import { FREE_FAILURES, MAX_DELAY_SECONDS } from '../src/auth/login-limiter.js';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true } }
limits: { loginAttemptsPerMinute: 10 }
`;

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';

/** Signs in from an address. */
function signIn(server: TestServer, address: string, email: string, password: string) {
  return checkedInject(server.app, server.model, {
    method: 'POST',
    url: `/api/${API_PATHS.session}`,
    remoteAddress: address,
    headers: CSRF,
    payload: { email, password },
  });
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: sign-in limits`, () => {
    it('lets the owner sign in from their address after ten wrong passwords from another', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const answers: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        answers.push((await signIn(server, ATTACKER, 'ann@example.com', `guess ${i}`)).statusCode);
      }
      // the attacker was slowed down: the pair's delays began after its free failures
      expect(answers.slice(0, FREE_FAILURES)).toEqual([401, 401, 401]);
      expect(answers.slice(FREE_FAILURES + 1)).toContain(429);
      const owner = await signIn(server, OWNER, 'ann@example.com', PASSWORD);
      expect(owner.statusCode).toBe(200);
      // and the attacker still waits, right password or not
      const attacker = await signIn(server, ATTACKER, 'ann@example.com', PASSWORD);
      expect(problem(attacker)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
    });

    it('makes one account and address wait longer after each failure, up to a ceiling', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      for (let i = 0; i < FREE_FAILURES; i += 1) {
        expect((await signIn(server, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
      }
      const waits: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        // one more failure, then the wait it earned; past the minute, so the address limit is not what answers
        server.clock.advance(61_000 + (waits.at(-1) ?? 0) * 1000);
        expect((await signIn(server, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
        const refused = await signIn(server, ATTACKER, 'ann@example.com', 'wrong');
        expect(problem(refused).code).toBe('E_RATE_LIMITED');
        waits.push(Number(refused.headers['retry-after']));
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
      expect(Math.max(...waits)).toBe(MAX_DELAY_SECONDS);
      // once the wait is over the right password gets through, and ends the count
      server.clock.advance(MAX_DELAY_SECONDS * 1000);
      expect((await signIn(server, ATTACKER, 'ann@example.com', PASSWORD)).statusCode).toBe(200);
      expect((await signIn(server, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
      expect((await signIn(server, ATTACKER, 'ann@example.com', 'wrong')).statusCode).toBe(401);
    });

    it('still limits the attempts of one address, whatever the accounts', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'bob@example.com', ['employee']);
      for (let i = 0; i < 10; i += 1) {
        // a different account each time: no pair reaches its delays
        const answer = await signIn(server, ATTACKER, `user${i}@example.com`, 'wrong');
        expect(answer.statusCode).toBe(401);
      }
      const limited = await signIn(server, ATTACKER, 'bob@example.com', PASSWORD);
      expect(problem(limited)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
      expect(limited.headers['retry-after']).toBe('60');
      // another address is not affected, and the address is free again after the minute
      expect((await signIn(server, OWNER, 'bob@example.com', PASSWORD)).statusCode).toBe(200);
      server.clock.advance(60_000);
      expect((await signIn(server, ATTACKER, 'bob@example.com', PASSWORD)).statusCode).toBe(200);
    });

    it('slows a spray from many addresses at the account’s ceiling, never the owner’s address', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      // 10 attempts a minute an address, 10 × that an account: 100 failures from 100 addresses
      const address = (i: number) => `192.0.2.${i}`;
      for (let i = 0; i < 100; i += 1) {
        expect((await signIn(server, address(i), 'ann@example.com', 'wrong')).statusCode).toBe(401);
      }
      // an address that has failed for the account waits for the minute's end, right password or not
      const sprayer = await signIn(server, address(0), 'ann@example.com', PASSWORD);
      expect(problem(sprayer).code).toBe('E_RATE_LIMITED');
      expect(Number(sprayer.headers['retry-after'])).toBeGreaterThan(0);
      // the owner, who has not failed, signs in
      expect((await signIn(server, OWNER, 'ann@example.com', PASSWORD)).statusCode).toBe(200);
      server.clock.advance(60_000);
      expect((await signIn(server, address(0), 'ann@example.com', PASSWORD)).statusCode).toBe(200);
    });
  });
}
