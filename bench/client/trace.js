// Where a cold load's main-thread time goes, task by task: one cold load of a page of the built
// client (signed in, 4× CPU throttle, as bench/client/run.js loads it) under Chromium's tracer, then,
// for every task over 50 ms, the browser's own phases (style, layout, paint, script evaluation) and
// the JS self time by original function (the sampler's stacks mapped through the client's source
// maps). `--compare <dir>…` instead loads several builds in turn and prints their medians.
//
//   node bench/client/trace.js [--client <built client dir>] [--path /claims] [--top 15]
//   node bench/client/trace.js --compare <dir> <dir> … [--runs 5] [--path /claims]
/* global window */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import { launch, openPage, recorded } from './browser.js';
import { claimTitle, EMAIL, PASSWORD, seed } from './seed.js';
import { benchModel } from './spec.js';
import { argument, median } from '../lib/stats.js';

const CLIENT = resolve(
  argument('--client', fileURLToPath(new URL('../../packages/client/dist/', import.meta.url))),
);
const PATH = argument('--path', '/claims');
const TOP = Number(argument('--top', '15'));
const RUNS = Number(argument('--runs', '5'));
const at = process.argv.indexOf('--compare');
const COMPARE =
  at === -1 ? [] : process.argv.slice(at + 1).filter((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const MARKER = claimTitle(0, '').slice(0, 7); // "Claim #": any row of the list
const PHASES = new Set(['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Commit', 'ParseHTML']);
const PHASES_JS = new Set(['v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'EvaluateScript']);

const dir = mkdtempSync(join(tmpdir(), 'ninefold-trace-'));
const children = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(file, client) {
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [file, client, dir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  const port = await new Promise((done) => child.once('message', (m) => done(m.port)));
  return `http://127.0.0.1:${port}`;
}

async function signedIn(browser, base) {
  const context = await browser.newContext();
  await context.request.post(`${base}/api/session`, {
    headers: { 'x-ninefold-csrf': '1' },
    data: { email: EMAIL, password: PASSWORD },
  });
  const state = await context.storageState();
  await context.close();
  return state;
}

const seeded = await seed(benchModel(), dir);
const browser = await launch();

if (COMPARE.length > 0) {
  const sides = [];
  for (const client of COMPARE.map((d) => resolve(d))) {
    const base = await serve(seeded.file, client);
    sides.push({ client, base, state: await signedIn(browser, base), runs: [] });
  }
  // a warm-up round, then rounds alternating the order of the builds
  for (let round = 0; round <= RUNS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const { page, close } = await openPage(browser, { storageState: side.state, marker: MARKER });
      await page.goto(`${side.base}${PATH}`);
      await page.waitForFunction(() => window.__bench.markerOnScreen !== null, null, { timeout: 60_000 });
      await page.waitForTimeout(1500);
      const b = await recorded(page);
      await close();
      const tbt = b.longTasks
        .filter(([start]) => start > b.fcp)
        .reduce((a, [, d]) => a + Math.max(0, d - 50), 0);
      if (round > 0) side.runs.push({ fcp: b.fcp, lcp: b.lcp, rows: b.markerOnScreen, tbt });
    }
  }
  for (const side of sides) {
    const m = (key) => median(side.runs.map((r) => r[key])).toFixed(0);
    console.log(`${side.client}: FCP ${m('fcp')}, LCP ${m('lcp')}, rows ${m('rows')}, TBT ${m('tbt')} ms`);
  }
} else {
  const base = await serve(seeded.file, CLIENT);
  const { page, close } = await openPage(browser, {
    storageState: await signedIn(browser, base),
    marker: MARKER,
  });
  const file = join(dir, 'trace.json');
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-v8.cpu_profiler',
      'blink.user_timing',
    ],
  });
  await page.goto(`${base}${PATH}`);
  await page.waitForFunction(() => window.__bench.markerOnScreen !== null, null, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  await browser.stopTracing();
  const b = await recorded(page);
  await close();
  report(JSON.parse(readFileSync(file, 'utf8')).traceEvents, b);
}
await browser.close();

function report(events, b) {
  const nav = events.find((e) => e.name === 'navigationStart');
  const onMain = (e) => e.pid === nav.pid && e.tid === nav.tid;
  const ms = (ts) => (ts - nav.ts) / 1000;
  // the sampler's profile arrives in chunks: nodes, samples and their time deltas
  const nodes = new Map();
  const samples = [];
  for (const e of events) {
    if (e.name === 'Profile' && e.pid === nav.pid) samples.start ??= e.args.data.startTime;
    if (e.name !== 'ProfileChunk' || e.pid !== nav.pid) continue;
    const profile = e.args.data.cpuProfile ?? {};
    for (const node of profile.nodes ?? []) nodes.set(node.id, node);
    let ts = samples.at(-1)?.ts ?? samples.start ?? e.ts;
    (profile.samples ?? []).forEach((id, i) => {
      ts += e.args.data.timeDeltas[i];
      samples.push({ ts, id });
    });
  }
  const maps = new Map();
  const nameOf = ({ callFrame: cf }) => {
    if (!cf.url?.includes('/assets/')) return cf.functionName || cf.url || '(native)';
    const file = basename(new URL(cf.url).pathname);
    if (!maps.has(file)) {
      try {
        maps.set(
          file,
          new SourceMapConsumer(JSON.parse(readFileSync(join(CLIENT, 'assets', `${file}.map`), 'utf8'))),
        );
      } catch {
        maps.set(file, null);
      }
    }
    const map = maps.get(file);
    if (map === null) return cf.functionName;
    const o = map.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber + 1 });
    const source = String(o.source)
      .split('node_modules/')
      .at(-1)
      .replace(/^.*packages\//, '');
    return `${o.name ?? cf.functionName}  ${source}:${o.line}`;
  };
  console.log(
    `${PATH}: FCP ${b.fcp.toFixed(0)} ms, LCP ${b.lcp.toFixed(0)} ms <${b.lcpElement}>, rows ${b.markerOnScreen.toFixed(0)} ms`,
  );
  const tasks = events.filter((e) => onMain(e) && e.name === 'RunTask' && e.dur > 50_000);
  for (const task of tasks) {
    const [from, to] = [task.ts, task.ts + task.dur];
    const phases = new Map();
    for (const e of events) {
      if (!onMain(e) || e.ph !== 'X' || e.ts < from || e.ts >= to) continue;
      const key = PHASES.has(e.name) ? e.name : PHASES_JS.has(e.name) ? 'script compile/evaluate' : null;
      if (key !== null) phases.set(key, (phases.get(key) ?? 0) + e.dur / 1000);
    }
    const self = new Map();
    let previous = null;
    for (const s of samples) {
      if (s.ts >= from && s.ts < to && previous !== null && nodes.has(s.id)) {
        const key = nameOf(nodes.get(s.id));
        self.set(key, (self.get(key) ?? 0) + (s.ts - previous.ts) / 1000);
      }
      previous = s;
    }
    const when = ms(from) >= b.fcp ? 'after FCP' : 'before FCP';
    const browserWork = [...phases].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
    console.log(
      `\nlong task at ${ms(from).toFixed(0)} ms, ${(task.dur / 1000).toFixed(0)} ms (${when}) ${browserWork}`,
    );
    for (const [name, time] of [...self].sort((x, y) => y[1] - x[1]).slice(0, TOP))
      console.log(`  ${time.toFixed(1).padStart(7)} ms  ${name}`);
  }
}
