// Writes packages/language/notation.schema.json from the built package: `npm run schema` at the root.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { notationSchema } from '../dist/index.js';

const file = fileURLToPath(new URL('../notation.schema.json', import.meta.url));
// formatted as `prettier --check` expects, so the lint stays clean after a regeneration
const options = (await prettier.resolveConfig(file)) ?? {};
const json = await prettier.format(JSON.stringify(notationSchema, null, 2), { ...options, filepath: file });
writeFileSync(file, json);
console.log(`wrote ${file}`);
