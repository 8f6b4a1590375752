// The spec of the client benchmark (spec.yaml beside this file), compiled once per process.
import { compile } from '@ninefold/language';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SPEC_FILE = fileURLToPath(new URL('./spec.yaml', import.meta.url));

/** The compiled model, or exit 1 with the diagnostics. */
export function benchModel() {
  const result = compile(readFileSync(SPEC_FILE, 'utf8'), { file: 'bench/client/spec.yaml' });
  if (!result.ok || result.diagnostics.length > 0) {
    console.error('The client benchmark spec does not compile cleanly:');
    for (const d of result.diagnostics) console.error(`  ${d.line}:${d.column}  ${d.code}  ${d.message}`);
    process.exit(1);
  }
  return result.model;
}
