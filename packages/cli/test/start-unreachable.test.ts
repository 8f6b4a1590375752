/**
 * `ninefold start` on a PostgreSQL server that cannot be reached (decision 0023): it stops with a
 * sentence that says so, naming the address it tried, and no stack trace. Nothing listens on port 9
 * of the loopback, so the connection is refused on any machine.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('ninefold start, the database unreachable', () => {
  it('says plainly that the database cannot be reached', async () => {
    let stdout = '';
    let stderr = '';
    const code = await main(['start', 'examples/expense-claims.md', '--port', '0', '--demo', '--quiet'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: repo,
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:9/nowhere' },
    });
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/is running/);
    expect(stderr).toBe(
      'Could not start: The database cannot be reached: connect ECONNREFUSED 127.0.0.1:9\n',
    );
  });
});
