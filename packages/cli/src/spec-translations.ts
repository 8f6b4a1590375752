/**
 * The translation files of a spec (decision 0068): `<spec>.<locale>.yaml` beside it. The CLI reads
 * them and hands them to `compile`, which stays free of the file system; every command that compiles
 * a spec (`check`, `start`, `migrate`, `backup`) reads them the same way, so that each serves the
 * same model.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { translationLocale } from '@ninefold/language';

/** The name a spec's translations start with: the spec's name without its extension. */
function baseOf(specPath: string): string {
  return basename(specPath).replace(/\.(?:md|markdown|txt|ya?ml)$/i, '');
}

/**
 * The translation files beside a spec, by path (as the spec's path writes its folder) to their text;
 * every locale found, listed or not (the compiler warns of one the spec does not offer).
 *
 * @example readSpecTranslations('examples/helpdesk.md') // { 'examples/helpdesk.ar.yaml': '…', … }
 */
export function readSpecTranslations(specPath: string): Record<string, string> {
  const folder = dirname(specPath);
  const base = baseOf(specPath);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return {};
  }
  const files: Record<string, string> = {};
  for (const name of names.sort()) {
    if (!isTranslationOf(name, base)) continue;
    const path = folder === '.' && !specPath.startsWith('.') ? name : join(folder, name);
    try {
      if (statSync(path).isFile()) files[path] = readFileSync(path, 'utf8');
    } catch {
      // vanished or unreadable between listing and reading: as if it were not there
    }
  }
  return files;
}

/**
 * Whether a file is the translation of a spec in the same folder (`claims.fr-FR.yaml` beside
 * `claims.md`): `check` of a folder skips it, as it is not a spec.
 */
export function isTranslationFile(name: string, siblings: readonly string[]): boolean {
  const locale = translationLocale(name);
  if (locale === null) return false;
  const base = basename(name).replace(/\.[^.]+\.ya?ml$/i, '');
  return siblings.some((s) => s !== name && translationLocale(s) === null && baseOf(s) === base);
}

function isTranslationOf(name: string, base: string): boolean {
  const locale = translationLocale(name);
  return locale !== null && name.toLowerCase().startsWith(`${base.toLowerCase()}.${locale.toLowerCase()}.y`);
}
