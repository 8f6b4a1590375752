// CPU profile of `compile()` on a generated spec: where the time goes, by function.
//
//   npx tsc -b && node bench/compile/profile.js 1000 [runs]
//
// Samples with the V8 profiler (node:inspector, as `node --cpu-prof` does) over `runs` compiles after
// one warm-up, prints the top functions by self time and the compiler's own functions by total time
// (self plus callees), and writes the .cpuprofile to bench/compile/out/ for Chrome DevTools.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { compile, LIMITS } from '@ninefold/language';
import { generateSpec } from './spec-generator.js';
import { aggregateProfile } from '../lib/cpu-profile.js';

const count = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 2);
const TOP = 20;

const { text } = generateSpec(count);
const options = {
  file: `bench-${count}.md`,
  ...(text.length > LIMITS.maxBytes ? { maxBytes: 2 * text.length } : {}),
};
const check = compile(text, options);
if (!check.ok || check.diagnostics.length > 0) {
  console.error(
    `The generated spec of ${count} entities has diagnostics; run bench/compile/run.js to see them.`,
  );
  process.exit(1);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 }); // µs
await session.post('Profiler.start');
const t0 = performance.now();
for (let i = 0; i < runs; i++) compile(text, options);
const wall = performance.now() - t0;
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const out = new URL('./out/', import.meta.url);
mkdirSync(out, { recursive: true });
const file = new URL(`compile-${count}.cpuprofile`, out);
writeFileSync(file, JSON.stringify(profile));

// self and total time per function, from the samples and their time deltas
const { self, total, sampled } = aggregateProfile(profile);

const pct = (v) => `${((100 * v) / sampled).toFixed(1).padStart(5)}%`;
const show = (map, filter) =>
  [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .forEach(([k, v]) => console.log(`  ${pct(v)}  ${(v / runs).toFixed(0).padStart(6)} ms/run  ${k}`));

const mine = (k) => k.includes('packages/language/');
const group = (k) => {
  if (k.includes('yaml/')) return 'yaml';
  if (k.includes('@marcbachmann/cel-js/')) return '@marcbachmann/cel-js';
  if (k.includes('@formatjs/')) return '@formatjs';
  if (mine(k)) return '@ninefold/language';
  if (k.startsWith('(garbage collector)')) return '(garbage collector)';
  return 'other (runtime, idle, program)';
};
const groups = new Map();
for (const [k, v] of self) groups.set(group(k), (groups.get(group(k)) ?? 0) + v);

console.log(
  `compile() of ${count} entities (${(text.length / 2 ** 20).toFixed(1)} MiB), ${runs} runs, ${(wall / runs).toFixed(0)} ms/run while profiling`,
);
console.log('\nself time by package');
for (const [g, v] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(v)}  ${g}`);
console.log(`\ntop ${TOP} functions by self time`);
show(self, () => true);
console.log(`\ntop ${TOP} compiler functions by total time (self + callees)`);
show(total, mine);
console.log(`\nprofile: ${file.pathname} (open in Chrome DevTools › Performance)`);
