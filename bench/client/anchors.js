// Builds the anchors (anchors/<name>/) with Vite's JS API into out/anchors/<name>/, each at the base
// `/anchor/<name>/` that serve.js answers, with the same React plugin and target as the client.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const ANCHORS = ['counter', 'list', 'form'];
export const ANCHORS_OUT = fileURLToPath(new URL('./out/anchors/', import.meta.url));

/** Builds every anchor; returns the output folder of each. */
export async function buildAnchors() {
  const dirs = {};
  for (const name of ANCHORS) {
    const outDir = `${ANCHORS_OUT}${name}`;
    await build({
      root: fileURLToPath(new URL(`./anchors/${name}/`, import.meta.url)),
      base: `/anchor/${name}/`,
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, target: 'es2022' },
    });
    dirs[name] = outDir;
  }
  return dirs;
}
