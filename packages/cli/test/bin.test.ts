import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

// The built binary, as `npx ninefold` runs it: proves the bin, the build and the exit status.
describe('the ninefold binary', () => {
  it('checks the seed and exits 0', () => {
    const result = spawnSync(
      process.execPath,
      ['packages/cli/bin/ninefold.js', 'check', 'examples/seed.txt'],
      {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('all nine facets unspecified');
  });

  it('exits 2 on an unknown command, with no stack trace', () => {
    const result = spawnSync(process.execPath, ['packages/cli/bin/ninefold.js', 'nope'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown command');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
