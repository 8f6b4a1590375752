// Where a page of the built client spends its main-thread time: a V8 CPU profile taken over CDP,
// each sample's frame mapped through the client's source maps to its original file and package.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { packageOf } from './bundle.js';

/** Starts the sampler on a page's CDP session (0.1 ms interval). */
export async function startProfile(cdp) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}

/**
 * Stops the sampler; returns self milliseconds per package and per original function, largest first,
 * for the frames in the client's assets (`clientDir`), the rest by category ((garbage collector),
 * (program) — the browser's own work: style, layout, paint, parsing — and (idle)).
 */
export async function stopProfile(cdp, clientDir) {
  const { profile } = await cdp.send('Profiler.stop');
  const { SourceMapConsumer } = await import('source-map-js');
  const consumers = new Map();
  const consumerOf = (url) => {
    const file = basename(new URL(url).pathname);
    if (!consumers.has(file)) {
      try {
        const path = join(clientDir, 'assets', `${file}.map`);
        consumers.set(file, { path, map: new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8'))) });
      } catch {
        consumers.set(file, null);
      }
    }
    return consumers.get(file);
  };
  const keyOf = new Map();
  for (const node of profile.nodes) {
    const cf = node.callFrame;
    let pkg = cf.url === '' ? cf.functionName || '(native)' : '(other scripts)';
    let fn = pkg;
    const consumer = cf.url.includes('/assets/') ? consumerOf(cf.url) : null;
    if (consumer !== null && consumer !== undefined) {
      const at = consumer.map.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
      if (at.source !== null) {
        const source = resolve(dirname(consumer.path), at.source);
        pkg = packageOf(source);
        fn = `${at.name ?? cf.functionName ?? '(anonymous)'}  ${source.replace(/^.*\/(node_modules|packages)\//, '')}:${at.line}`;
      }
    }
    keyOf.set(node.id, { pkg, fn });
  }
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { pkg, fn } = keyOf.get(id);
    if (pkg === '(idle)') return;
    total += dt;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  });
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { total, byPackage: sorted(byPackage), byFunction: sorted(byFunction) };
}

/** Prints the top of a profile. */
export function printProfile(title, p, top = 12) {
  console.log(`\n${title}: ${p.total.toFixed(0)} ms of main-thread samples (not idle), self time`);
  for (const [name, ms] of p.byPackage.slice(0, top))
    console.log(
      `  ${name.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms  ${((100 * ms) / p.total).toFixed(1)} %`,
    );
  console.log('  top functions:');
  for (const [name, ms] of p.byFunction.slice(0, top))
    console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}
