/**
 * The example specs of the repository (`examples/`), compiled: what the tests of every package run
 * a real product on.
 */
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled model of an example; one that does not compile fails the test.
 *
 * @example const model = exampleModel('expense-claims.md');
 */
export function exampleModel(file: string): Model {
  const path = fileURLToPath(new URL(`../../../examples/${file}`, import.meta.url));
  const result = compile(readFileSync(path, 'utf8'), { file });
  if (!result.ok) throw new Error(`examples/${file} does not compile`);
  return result.model;
}
