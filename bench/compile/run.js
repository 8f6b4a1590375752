// Compile benchmark: `compile()` against its anchor, the bare YAML parse of the same blocks.
//
//   npm run bench:compile                      (tsc -b && node --expose-gc bench/compile/run.js)
//   node --expose-gc bench/compile/run.js --sizes 100,1000
//
// For each size it generates a spec (bench/compile/spec-generator.js), checks that it compiles with
// zero diagnostics (exit 1 otherwise), warms up, then times compile and the anchor alternately, so
// that both see the same machine. Medians; targets are printed, a miss never fails the run.
// Peak memory of each side is the kernel's high-water mark of a fresh child process that runs it once.
// The figures are also written to bench/compile/out/latest.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compile, LIMITS } from '@ninefold/language';
import { parseDocument } from 'yaml';
import { generateSpec } from './spec-generator.js';
import { argument, median } from '../lib/stats.js';

/** The options the compiler passes to the same parser (packages/language/src/source/yaml.ts). */
const YAML_OPTIONS = { uniqueKeys: false, prettyErrors: false, strict: true, version: '1.2' };
const PLAN = {
  100: { warmups: 3, runs: 5 },
  1000: { warmups: 1, runs: 5 },
  5000: { warmups: 0, runs: 3 }, // the zero-diagnostic check is its warm-up
};
const TARGETS = { oneThousandMs: 1000, ratio: 4, growth: 5.5 };

const sizes = argument('--sizes', '100,1000,5000').split(',').map(Number);
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : null;
const MiB = 2 ** 20;

const num = (n) => n.toLocaleString('en-US');
const ms = (n) => `${n >= 100 ? n.toFixed(0) : n.toFixed(1)} ms`;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

function parseBlocks(blocks) {
  const docs = [];
  for (const block of blocks) docs.push(parseDocument(block, YAML_OPTIONS));
  return docs;
}

/** Zero diagnostics, the expected counts, and a clean anchor parse — or exit 1. */
function verify(count, text, blocks, options) {
  const result = compile(text, options);
  const problems = result.diagnostics.map(
    (d) =>
      `  ${d.file}:${d.line}:${d.column}  ${d.code}  ${d.message}${d.hint ? `\n    hint: ${d.hint}` : ''}`,
  );
  if (result.ok) {
    const s = result.summary;
    const expected = { entities: count, rules: 3 * count, transitions: 5 * count, roles: 3 };
    for (const [key, value] of Object.entries(expected)) {
      if (s[key] !== value) problems.push(`  summary.${key} is ${s[key]}, expected ${value}`);
    }
  }
  const ok = result.ok;
  for (const doc of parseBlocks(blocks)) {
    for (const e of doc.errors) problems.push(`  yaml anchor: ${e.code} ${e.message.split('\n')[0]}`);
  }
  if (!ok || problems.length > 0) {
    console.error(`The generated spec of ${num(count)} entities does not compile cleanly:`);
    console.error(problems.slice(0, 20).join('\n'));
    if (problems.length > 20) console.error(`  … and ${problems.length - 20} more`);
    process.exit(1);
  }
}

/** Times one call; samples RSS and heap right after it, while its result (and garbage) is alive. */
function timed(fn, memory) {
  gc?.();
  const t0 = performance.now();
  const result = fn();
  const elapsed = performance.now() - t0;
  const { rss, heapUsed } = process.memoryUsage();
  memory.rss = Math.max(memory.rss, rss);
  memory.heapAfter = Math.max(memory.heapAfter, heapUsed);
  gc?.();
  memory.retained = Math.max(memory.retained, process.memoryUsage().heapUsed - memory.baseline);
  if (result === null) throw new Error('unreachable'); // keeps `result` alive until here
  return elapsed;
}

function prepare(count) {
  const { text, blocks } = generateSpec(count);
  const bytes = new TextEncoder().encode(text).length;
  // the default cap is 32 MiB; a larger generated spec is still what we want to time
  const options = { file: `bench-${count}.md`, ...(bytes > LIMITS.maxBytes ? { maxBytes: 2 * bytes } : {}) };
  return { text, blocks, bytes, options };
}

/** In a child process: one run of one side, reporting the RSS high-water mark over the baseline. */
function probe(which, count) {
  const { text, blocks, options } = prepare(count);
  gc?.();
  const before = process.memoryUsage().rss;
  const result = which === 'compile' ? compile(text, options) : parseBlocks(blocks);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ before, peak, alive: result !== null }));
}

function peakOf(which, count) {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--expose-gc', self, '--probe', which, String(count)], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`memory probe of ${which} failed: ${child.stderr}`);
  const { before, peak } = JSON.parse(child.stdout);
  return { peak, growth: peak - before };
}

function measure(count) {
  const plan = PLAN[count] ?? { warmups: 1, runs: 3 };
  const { text, blocks, bytes, options } = prepare(count);
  verify(count, text, blocks, options);

  const run = { compile: () => compile(text, options), yaml: () => parseBlocks(blocks) };
  const scratch = { rss: 0, heapAfter: 0, retained: 0, baseline: 0 };
  for (let i = 0; i < plan.warmups; i++) {
    timed(run.compile, scratch);
    timed(run.yaml, scratch);
  }
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const memory = {
    compile: { rss: 0, heapAfter: 0, retained: 0, baseline },
    yaml: { rss: 0, heapAfter: 0, retained: 0, baseline },
  };
  const times = { compile: [], yaml: [] };
  for (let i = 0; i < plan.runs; i++) {
    // alternate, and swap the order each round, so that neither always runs first
    const order = i % 2 === 0 ? ['compile', 'yaml'] : ['yaml', 'compile'];
    for (const which of order) times[which].push(timed(run[which], memory[which]));
  }
  const compileMs = median(times.compile);
  const yamlMs = median(times.yaml);
  return {
    entities: count,
    bytes,
    blocks: blocks.length,
    runs: plan.runs,
    compileMs,
    yamlMs,
    ratio: compileMs / yamlMs,
    compileRuns: times.compile,
    yamlRuns: times.yaml,
    memory,
    peak: { compile: peakOf('compile', count), yaml: peakOf('yaml', count) },
  };
}

if (process.argv.includes('--probe')) {
  probe(argument('--probe', 'compile'), Number(process.argv[process.argv.indexOf('--probe') + 2]));
  process.exit(0);
}

const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
const machine = `node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpuModel.trim()})`;
console.log(`Ninefold compile benchmark — ${machine}`);
console.log(
  `anchor: yaml ${YAML_OPTIONS.version} parseDocument of the same fenced blocks the compiler reads; ` +
    (gc ? 'GC between runs' : 'no --expose-gc: runs are not separated by a GC'),
);
console.log('');

const results = [];
for (const count of sizes) {
  const r = measure(count);
  results.push(r);
  const spread = (runs) => `${ms(Math.min(...runs))}…${ms(Math.max(...runs))}`;
  console.log(
    `${num(count).padStart(5)} entities  ${mib(r.bytes).padStart(8)}  ${String(r.blocks).padStart(5)} blocks  ` +
      `${r.runs} runs  compile ${ms(r.compileMs).padStart(9)} (${spread(r.compileRuns)})  ` +
      `yaml ${ms(r.yamlMs).padStart(9)} (${spread(r.yamlRuns)})  ` +
      `compile ÷ yaml ${r.ratio.toFixed(2)}×  [≤ ${TARGETS.ratio}×: ${verdict(r.ratio <= TARGETS.ratio)}]`,
  );
}

console.log('');
console.log('targets (informational: a miss does not fail the run)');
const at = (n) => results.find((r) => r.entities === n);
const one = at(1000);
const five = at(5000);
if (one) {
  console.log(
    `  1,000 entities compile under 1 s       ${ms(one.compileMs).padStart(9)}   ${verdict(one.compileMs < TARGETS.oneThousandMs)}`,
  );
}
for (const r of results) {
  console.log(
    `  ${num(r.entities).padStart(5)}: compile ≤ ${TARGETS.ratio}× the YAML parse      ${`${r.ratio.toFixed(2)}×`.padStart(9)}   ${verdict(r.ratio <= TARGETS.ratio)}`,
  );
}
let growth = null;
if (one && five) {
  growth = { compile: five.compileMs / one.compileMs, yaml: five.yamlMs / one.yamlMs };
  console.log(
    `  time(5,000) ÷ time(1,000) ≤ ${TARGETS.growth}×       ${`${growth.compile.toFixed(2)}×`.padStart(9)}   ${verdict(growth.compile <= TARGETS.growth)}` +
      `   (yaml parse alone: ${growth.yaml.toFixed(2)}×; linear is 5×)`,
  );
}

console.log('');
console.log('memory: peak RSS = high-water mark of a fresh process running one call (+ its rise over the');
console.log(
  '        process with the spec loaded); RSS and heap sampled right after each timed call, garbage',
);
console.log('        included; retained = heap the result still holds after a GC');
for (const r of results) {
  for (const which of ['compile', 'yaml']) {
    const m = r.memory[which];
    const p = r.peak[which];
    console.log(
      `${num(r.entities).padStart(5)} entities  ${which.padEnd(7)}  peak RSS ${mib(p.peak).padStart(10)} (+${mib(p.growth)})  ` +
        `sampled RSS ${mib(m.rss).padStart(10)}  heap used ${mib(m.heapAfter).padStart(10)}  retained ${mib(m.retained).padStart(9)}`,
    );
  }
  const ratio = r.peak.compile.growth / r.peak.yaml.growth;
  console.log(`${''.padStart(15)}compile ÷ yaml, rise of peak RSS: ${ratio.toFixed(2)}×`);
}

const out = new URL('./out/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(
  new URL('latest.json', out),
  `${JSON.stringify({ date: new Date().toISOString(), machine, gc: gc !== null, targets: TARGETS, results, growth }, null, 2)}\n`,
);
console.log('');
console.log(`figures written to ${new URL('latest.json', out).pathname}`);
