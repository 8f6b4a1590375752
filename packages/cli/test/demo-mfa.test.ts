/**
 * `ninefold start --demo` on a spec that requires two-step sign-in (`auth.mfa`, decision 0041): the
 * demo data is still made through the API by the demo accounts (their passwords alone, as no
 * authenticator app stands behind them), the start says what the policy means for the shared demo
 * accounts, and the served app holds the policy: a demo account of a required role must enrol.
 */
import { API_PATHS, CSRF_HEADER, CSRF_HEADER_VALUE, type MfaChallengeAnswer } from '@ninefold/model';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-demo-mfa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ninefold start --demo: a required second factor', () => {
  it('makes the demo data, says what the policy means for the demo accounts, and holds it', async () => {
    const printed: string[] = [];
    const server = await startServer({
      specPath: join(repo, 'examples/expense-claims.md'),
      dataDir: join(dir, 'start'),
      port: 0,
      handleSignals: false,
      logger: false,
      print: (line) => void printed.push(line),
      databaseUrl: '',
      demo: true,
      transformModel: (model) => ({ ...model, auth: { ...model.auth, mfa: { required: ['admin'] } } }),
    });
    try {
      expect(printed.some((line) => line.startsWith('Demo data: '))).toBe(true);
      expect(printed).toContain(
        'Demo: the spec requires two-step sign-in (auth.mfa): the first person to sign in as such a demo account adds it to their authenticator app, and only its codes open that account afterwards.',
      );
      const admin = server.demoAccounts.find((account) => account.role === 'admin')!;
      const signIn = await server.app.inject({
        method: 'POST',
        url: `/api/${API_PATHS.session}`,
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        payload: { email: admin.email, password: admin.password },
      });
      expect(signIn.statusCode).toBe(202);
      expect(signIn.json<MfaChallengeAnswer>().mfa.enrol).toBe(true);
    } finally {
      await server.close();
    }
  });
});
