/**
 * What a command says when the spec it was given is not there: `no file examples/expense-claim.md —
 * did you mean examples/expense-claims.md?`, the nearest spec file of that folder by edit distance
 * (decision 0062). `start`, `migrate` (and the commands that open a spec's database) and `check`
 * all say it the same way, before anything else happens.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { nearest } from '@ninefold/language';

/** The files a folder may hold a spec in (as `ninefold check` reads a folder). */
const SPEC_FILE = /\.(md|markdown|txt|ya?ml)$/i;

/**
 * Null when `spec` (as the person typed it, relative to `cwd`) is a file; else one line saying what
 * is missing, with the nearest spec file in the same folder when one is close enough to be a typo.
 *
 * @example missingSpecMessage('/repo', 'examples/expense-claim.md')
 * // 'no file examples/expense-claim.md — did you mean examples/expense-claims.md?'
 */
export function missingSpecMessage(cwd: string, spec: string): string | null {
  const path = resolve(cwd, spec);
  const kind = kindOf(path);
  if (kind === 'file') return null;
  if (kind === 'folder') return `${spec} is a folder, not a spec file`;
  const folder = dirname(path);
  if (kindOf(folder) !== 'folder') return `no folder ${dirname(spec)} (for ${spec})`;
  const near = nearestSpec(cwd, spec);
  return near === null ? `no file ${spec}` : `no file ${spec} — did you mean ${near}?`;
}

/**
 * The spec file in the folder of `spec` whose name is nearest to it (as typed: `examples/…`), or
 * null when none is close enough to be a typo.
 *
 * @example nearestSpec('/repo', 'examples/expense-claim.md') // 'examples/expense-claims.md'
 */
export function nearestSpec(cwd: string, spec: string): string | null {
  const folder = dirname(resolve(cwd, spec));
  let names: string[];
  try {
    names = readdirSync(folder).filter(
      (name) => SPEC_FILE.test(name) && kindOf(join(folder, name)) === 'file',
    );
  } catch {
    return null; // no folder, or one that cannot be read: nothing to suggest
  }
  const best = nearest(basename(spec), names);
  return best === null ? null : `${spec.slice(0, spec.length - basename(spec).length)}${best}`;
}

function kindOf(path: string): 'file' | 'folder' | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
}
