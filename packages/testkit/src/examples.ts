/**
 * The example specs of the repository (`examples/`), compiled: what the tests of every package run
 * a real product on.
 */
import { compile, translationLocale } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const EXAMPLES_DIR = new URL('../../../examples/', import.meta.url);

/**
 * The file names of every example spec (`.md`, `.yaml`, `.yml`; the seed, `seed.txt`, is the
 * product's brief, not a spec of ours), in order.
 *
 * @example for (const file of exampleFiles()) exampleModel(file);
 */
export function exampleFiles(): string[] {
  return (
    readdirSync(EXAMPLES_DIR)
      // a spec's translation (`orders.fr-FR.yaml`) is read with it, not as a spec (decision 0068)
      .filter((name) => /\.(md|ya?ml)$/.test(name) && translationLocale(name) === null)
      .sort()
  );
}

/**
 * The compiled model of an example, with its translation files; one that does not compile fails
 * the test.
 *
 * @example const model = exampleModel('expense-claims.md');
 */
export function exampleModel(file: string): Model {
  const path = fileURLToPath(new URL(`${file}`, EXAMPLES_DIR));
  const base = file.replace(/\.(md|ya?ml)$/, '');
  const translations = Object.fromEntries(
    readdirSync(EXAMPLES_DIR)
      .filter((name) => name.startsWith(`${base}.`) && translationLocale(name) !== null)
      .map((name) => [name, readFileSync(fileURLToPath(new URL(name, EXAMPLES_DIR)), 'utf8')]),
  );
  const result = compile(readFileSync(path, 'utf8'), { file, translations });
  if (!result.ok) throw new Error(`examples/${file} does not compile`);
  return result.model;
}
