/**
 * `ninefold check` reads a spec with its translation files (decision 0068): a translation beside its
 * spec is not checked as a spec of its own, its diagnostics quote its own lines, and the examples
 * check without a missing text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

async function run(args: string[], cwd: string) {
  let stdout = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t), isTTY: false },
    stderr: { write: () => undefined },
    cwd,
    env: {},
  });
  return { code, stdout };
}

describe('ninefold check and translation files', () => {
  it('checks a folder’s spec with its translation, quoting the translation’s line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-translations-'));
    writeFileSync(
      join(dir, 'desk.yaml'),
      'product:\n  name: Desk\n  locales: [en-GB, fr-FR]\nentities:\n  Ticket: { fields: { title: string } }\n',
    );
    writeFileSync(join(dir, 'desk.fr-FR.yaml'), 'entities:\n  Ticket:\n    lable: Demande\n');
    const { code, stdout } = await run(['check', '.'], dir);
    expect(code).toBe(1);
    expect(stdout).toContain('desk.fr-FR.yaml:3:5  error  NF201  `lable` is not a translatable text');
    expect(stdout).toContain('    lable: Demande');
    expect(stdout).toContain('NF335');
    expect(stdout).toContain('1 spec checked');
  });

  it('checks every example and its translations with no text left untranslated', async () => {
    const { code, stdout } = await run(['check', 'examples'], repo);
    expect(code).toBe(0);
    expect(stdout).not.toContain('NF335');
    expect(stdout).not.toContain('NF337');
    expect(stdout).toContain('6 specs checked, all valid.');
  });
});
