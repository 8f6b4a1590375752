// Client benchmark: Ninefold's React client against hand-written anchors, each pair side by side in
// one run, in headless Chromium with 4× CPU throttling.
//
//   npm run bench:client            (npm run build && node bench/client/run.js)
//   node bench/client/run.js --runs 5 --only bundle,list,form,load [--client <built client dir>] [--profile]
//
// 1. bundle: JS and CSS of packages/client/dist, gzipped, total and initial load, ÷ a minimal Vite
//    React app (anchors/counter) built in the same run; the initial load is judged with the `first`
//    catalogue of the language that makes it heaviest (each language's figure is printed).
// 2. list: 10,000 claims; time from navigation to the first rows on screen of our generated list
//    screen ÷ a TanStack-virtualised table (anchors/list) over the same API page.
// 3. form: time per keystroke in our generated 20-field create form ÷ bare React Hook Form with the
//    same fields (anchors/form).
// 4. load: cold load of our list screen: LCP, CLS and total blocking time, against absolute targets.
//
// The server is what `startServer` builds with `clientDir` (bench/client/serve.js, its own process),
// on a SQLite file seeded with bench/client/seed.js; the anchors are served by the same server under
// /anchor/, on the same origin, with the same session cookie. Medians of `--runs` runs, the sides
// alternating, each in a fresh browser context. A missed target is printed, never fatal; a page that
// does not render what it must fails the run (exit 1).
/* global window, document -- in the functions passed to page.evaluate and waitForFunction */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANCHORS_OUT, buildAnchors } from './anchors.js';
import { CHROMIUM, CPU_THROTTLING, heapAndNodes, launch, openPage, recorded } from './browser.js';
import { bytesByPackage, measureBundle } from './bundle.js';
import { printProfile, startProfile, stopProfile } from './profile.js';
import { EMAIL, PASSWORD, ROWS, seed } from './seed.js';
import { benchModel } from './spec.js';
import { argument, median } from '../lib/stats.js';

const RUNS = Number(argument('--runs', '5'));
const ONLY = argument('--only', '');
/** `--profile`: one more run of our side of the list and the form under the CPU profiler. */
const PROFILE = process.argv.includes('--profile');
const KEYSTROKES = 'Quarterly review of the Zurich office fit-out';
// the built client: `npm run build` writes packages/client/dist; `--client <dir>` measures another build
const CLIENT_DIR = resolve(
  argument('--client', fileURLToPath(new URL('../../packages/client/dist/', import.meta.url))),
);
const OUT = fileURLToPath(new URL('./out/', import.meta.url));
const TIMEOUT = 60_000;
/** How long a page may take to show what is measured before it is taken as not there (a stub). */
const PROBE_TIMEOUT = 20_000;
const CSRF = { 'x-ninefold-csrf': '1' };
const MiB = 2 ** 20;
const TARGETS = { bundle: 2.0, list: 1.3, form: 1.5, lcp: 1500, cls: 0.05, tbt: 200 };

const wanted = (key) => ONLY === '' || ONLY.split(',').includes(key);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const msf = (n) => (n === null || n === undefined ? 'n/a' : `${n.toFixed(n < 10 ? 2 : 0)} ms`);
const plus = (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });
const ratio = (a, b) => (a === null || b === null ? null : a / b);
const x = (r) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);
const verdict = (value, target) => (value === null ? 'n/a' : value <= target ? 'PASS' : 'MISS');
const spread = (list) => (list.length === 0 ? '' : ` (${msf(Math.min(...list))}–${msf(Math.max(...list))})`);

function fail(message) {
  console.error(`\n${message}`);
  process.exit(1);
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  throttling: CPU_THROTTLING,
  runs: RUNS,
};

// ---------------------------------------------------------------------------------------------
// 1. Bundle

if (!existsSync(join(CLIENT_DIR, 'index.html')))
  fail(`${join(CLIENT_DIR, 'index.html')} is missing: build the client first (npm run build).`);
console.log('Building the anchors with Vite…');
const anchors = await buildAnchors();

if (wanted('bundle')) {
  const ours = await measureBundle(CLIENT_DIR, '/');
  const counter = await measureBundle(anchors.counter, '/anchor/counter/');
  const byPackage = await bytesByPackage(CLIENT_DIR, ours.initialFiles);
  const minified = byPackage.reduce((a, [, n]) => a + n, 0);
  results.bundle = { ours, counter, byPackage };
  console.log('\n## Bundle: JS + CSS, gzip -6 (raw in brackets)\n');
  const row = (what, a, b) =>
    console.log(
      `${what.padEnd(22)} ours ${kb(a.gzip).padStart(9)} (${kb(a.raw)})   counter ${kb(b.gzip).padStart(8)} (${kb(b.raw)})   ${x(a.gzip / b.gzip)}`,
    );
  row('initial load, JS', ours.initial.js, counter.initial.js);
  row('initial load, CSS', ours.initial.css, counter.initial.css);
  row('initial load', ours.initial.all, counter.initial.all);
  row('everything', ours.total.all, counter.total.all);
  // a reader in another language also fetches that language's first catalogue before the first render
  console.log(`\nInitial load with the language's first catalogue (English's is in the initial load):`);
  const firsts = ours.firstCatalogues.map((c) => {
    const load = plus(ours.initial.all, c);
    console.log(
      `  ${c.language.padEnd(4)} + ${kb(c.gzip).padStart(8)} = ${kb(load.gzip).padStart(9)} (${kb(load.raw)})   ${x(load.gzip / counter.initial.all.gzip)}`,
    );
    return { language: c.language, gzip: load.gzip };
  });
  const worst = firsts.reduce((a, b) => (b.gzip > a.gzip ? b : a), {
    language: 'en',
    gzip: ours.initial.all.gzip,
  });
  const initialRatio = worst.gzip / counter.initial.all.gzip;
  const totalRatio = ours.total.all.gzip / counter.total.all.gzip;
  results.bundle.worstFirstLoad = { ...worst, ratio: initialRatio };
  console.log(
    `\ninitial (worst language: ${worst.language}) ÷ counter ${x(initialRatio)} ${verdict(initialRatio, TARGETS.bundle)}; ` +
      `everything ÷ counter ${x(totalRatio)} ${verdict(totalRatio, TARGETS.bundle)} (target ≤ ${TARGETS.bundle}×)`,
  );
  console.log(
    `${ours.initial.files} of ${ours.total.files} files load first; service worker and Workbox: ` +
      `${kb(ours.serviceWorker.gzip)} gzip, fetched after load`,
  );
  console.log('\nInitial JS by package (minified bytes, from the source maps):');
  for (const [name, bytes] of byPackage.slice(0, 14))
    console.log(`  ${name.padEnd(38)} ${kb(bytes).padStart(9)}  ${((100 * bytes) / minified).toFixed(1)} %`);
  console.log('\nLazy chunks:');
  for (const f of ours.files.filter((f) => !f.initial && f.file.endsWith('.js')))
    console.log(`  ${f.file.padEnd(40)} ${kb(f.gzip).padStart(9)} gzip`);
}

// ---------------------------------------------------------------------------------------------
// Server and browser (list, form, load)

const children = [];
const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-client-'));
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function startServer(file) {
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [file, CLIENT_DIR, ANCHORS_OUT], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, url: `http://127.0.0.1:${m.port}` }));
    child.once('exit', (code) => reject(new Error(`The server exited with ${code} before listening.`)));
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.child.on('message', (m) => m.type === 'stopped' && resolve(m.peakRss));
    server.child.send({ type: 'stop' });
  });
}

/** Runs each side `RUNS` times after a warm-up of each, alternating which goes first. */
async function pair(sides) {
  for (const side of sides) await side.measure();
  const runs = sides.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) runs[i].push(await sides[i].measure());
  }
  return runs;
}

if (wanted('list') || wanted('form') || wanted('load')) {
  if (!existsSync(CHROMIUM))
    fail(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  const started = performance.now();
  const model = benchModel();
  const seeded = await seed(model, dir);
  console.log(
    `\nSeeded ${ROWS.toLocaleString('en-US')} claims in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const server = await startServer(seeded.file);
  const browser = await launch();
  results.browser = `Chromium ${browser.version()} (${CHROMIUM}), headless, CPU throttled ${CPU_THROTTLING}×`;
  console.log(results.browser);

  // one sign-in; every context starts with its cookie
  const signing = await browser.newContext();
  const signIn = await signing.request.post(`${server.url}/api/session`, {
    headers: CSRF,
    data: { email: EMAIL, password: PASSWORD },
  });
  if (!signIn.ok()) fail(`Signing in answered ${signIn.status()}: ${await signIn.text()}`);
  const storageState = await signing.storageState();
  await signing.close();
  const url = (path) => `${server.url}${path}`;
  const screenOf = (kind, entity) => model.screens.find((s) => s.kind === kind && s.entity === entity);

  if (wanted('list')) results.list = await listBenchmark();
  if (wanted('form')) results.form = await formBenchmark();
  if (wanted('load')) results.load = await loadBenchmark();

  await browser.close();
  results.serverPeakRss = await stopServer(server);
  results.runnerPeakRss = process.resourceUsage().maxRSS * 1024;
  console.log(`\nPeak RSS: server ${mib(results.serverPeakRss)}, runner ${mib(results.runnerPeakRss)}`);

  // ------------------------------------------------------------------------------------------
  // 2. List

  async function listBenchmark() {
    const screen = screenOf('list', 'Claim');
    const resource = `${model.calls.basePath.replace(/\/$/, '')}/claims`;
    // what our list screen asks the API for: the anchor asks for the very same page. The probe's
    // browser says it has settings of its own, so that no rows are prerendered into the page
    // (decision 0018) and the app asks for them itself
    const cookie = storageState.cookies[0];
    const probe = await openPage(browser, {
      storageState: {
        ...storageState,
        cookies: [
          ...storageState.cookies,
          { ...cookie, name: 'nf-device-settings', value: '1', httpOnly: false },
        ],
      },
    });
    const asked = probe.page.waitForRequest((r) => r.url().startsWith(url(`${resource}?`)), {
      timeout: PROBE_TIMEOUT,
    });
    await probe.page.goto(url(screen.path));
    let api;
    try {
      api = new URL((await asked).url()).pathname + new URL((await asked).url()).search;
    } catch {
      await probe.close();
      console.log(`\n## List: our list screen at ${screen.path} asked no page of ${resource}: not measured`);
      return { error: 'the list screen made no list request' };
    }
    const page = await (await probe.context.request.get(url(api))).json();
    await probe.close();
    if (!Array.isArray(page.data) || page.data.length === 0) fail(`${api} answered no rows.`);
    const marker = page.data[0].title; // unique; no title is a prefix of another
    const anchorPath = `/anchor/list/?api=${encodeURIComponent(api)}&cols=${screen.fields.join(',')}`;

    const measure =
      (path, profiled = false) =>
      async () => {
        const { page: p, cdp, close } = await openPage(browser, { storageState, marker });
        if (profiled) await startProfile(cdp);
        await p.goto(url(path));
        await p.waitForFunction(() => window.__bench.markerOnScreen !== null, null, { timeout: TIMEOUT });
        // where the server drew the rows into the page (decision 0018): until the app shows its own
        await p.waitForFunction(
          () =>
            document.getElementById('nf-prerender') === null &&
            (window.__bench.prerenderGone !== null || document.getElementById('ninefold-state') === null),
          null,
          { timeout: TIMEOUT },
        );
        if (profiled)
          printProfile('Profile of our list, navigation to first rows', await stopProfile(cdp, CLIENT_DIR));
        const b = await recorded(p);
        // the waterfall: when the page asked for the rows, and when they arrived
        const request = await p.evaluate(
          (prefix) => performance.getEntriesByType('resource').find((e) => e.name.includes(prefix)) ?? null,
          `${resource}?`,
        );
        const memory = await heapAndNodes(cdp);
        await close();
        return {
          firstRows: b.markerOnScreen,
          appRows: b.prerenderGone ?? b.markerOnScreen,
          fcp: b.fcp,
          asked: request?.startTime ?? null,
          answered: request?.responseEnd ?? null,
          ...memory,
        };
      };
    const [ours, anchor] = await pair([{ measure: measure(screen.path) }, { measure: measure(anchorPath) }]);
    const summary = (runs) => ({
      firstRows: median(runs.map((r) => r.firstRows)),
      appRows: median(runs.map((r) => r.appRows)),
      all: runs.map((r) => r.firstRows),
      fcp: median(runs.map((r) => r.fcp)),
      asked: median(runs.map((r) => r.asked)),
      answered: median(runs.map((r) => r.answered)),
      heap: median(runs.map((r) => r.heap)),
      nodes: median(runs.map((r) => r.nodes)),
    });
    const a = summary(ours);
    const b = summary(anchor);
    const r = ratio(a.firstRows, b.firstRows);
    console.log(`\n## List: ${ROWS.toLocaleString('en-US')} claims, navigation to first rows on screen\n`);
    console.log(
      `API page: ${api} (${page.data.length} rows${page.total === undefined ? '' : ` of ${page.total}`})`,
    );
    console.log(`ours    ${msf(a.firstRows)}${spread(a.all)}   JS heap ${mib(a.heap)}, ${a.nodes} DOM nodes`);
    console.log(`anchor  ${msf(b.firstRows)}${spread(b.all)}   JS heap ${mib(b.heap)}, ${b.nodes} DOM nodes`);
    console.log(`ours ÷ anchor ${x(r)} ${verdict(r, TARGETS.list)} (target ≤ ${TARGETS.list}×)`);
    console.log('waterfall, medians: first contentful paint, rows asked for, rows answered, rows on screen');
    for (const [who, f] of [
      ['ours  ', a],
      ['anchor', b],
    ])
      console.log(`${who}  ${msf(f.fcp)}, ${msf(f.asked)}, ${msf(f.answered)}, ${msf(f.firstRows)}`);
    // the rows on screen may be their prerender (decision 0018): when the app's own are
    console.log(
      `the app's own rows on screen (its code run, the rows it renders in the prerender's place): ours ${msf(a.appRows)}, anchor ${msf(b.appRows)}`,
    );
    if (PROFILE) await measure(screen.path, true)();
    return { api, ours: a, anchor: b, ratio: r };
  }

  // ------------------------------------------------------------------------------------------
  // 3. Form

  async function formBenchmark() {
    const screen = screenOf('create', 'Application');
    const field = (p) => p.getByRole('textbox', { name: /^Summary\b/ }).first();
    const measure =
      (path, profiled = false) =>
      async () => {
        const { page: p, cdp, close } = await openPage(browser, { storageState });
        await p.goto(url(path));
        const input = field(p);
        try {
          await input.waitFor({ state: 'visible', timeout: PROBE_TIMEOUT });
        } catch {
          await close();
          return null;
        }
        await input.click();
        await p.waitForTimeout(500); // let the form settle after the focus
        if (profiled) await startProfile(cdp);
        for (let i = 0; i < KEYSTROKES.length; i++) {
          await p.keyboard.type(KEYSTROKES[i]);
          await p.waitForFunction((n) => window.__bench.keys.length >= n, i + 1, { timeout: TIMEOUT });
          await p.waitForTimeout(20);
        }
        if (profiled) printProfile('Profile of our form, typing', await stopProfile(cdp, CLIENT_DIR));
        const value = await input.inputValue();
        if (value !== KEYSTROKES) fail(`${path}: typed "${KEYSTROKES}", the field holds "${value}".`);
        const { keys } = await recorded(p);
        const memory = await heapAndNodes(cdp);
        await close();
        return {
          latency: median(keys.map((k) => k.latency)),
          handlers: median(keys.map((k) => k.handlers)),
          worst: Math.max(...keys.map((k) => k.latency)),
          ...memory,
        };
      };
    const ourSide = measure(screen.path);
    const first = await ourSide();
    if (first === null) {
      console.log(`\n## Form: no "Summary" field on our create screen ${screen.path}: not measured`);
      return { error: 'no Summary text box on the create screen' };
    }
    const [ours, anchor] = await pair([{ measure: ourSide }, { measure: measure('/anchor/form/') }]);
    const summary = (runs) => ({
      latency: median(runs.map((r) => r.latency)),
      latencies: runs.map((r) => r.latency),
      handlers: median(runs.map((r) => r.handlers)),
      handlersAll: runs.map((r) => r.handlers),
      worst: median(runs.map((r) => r.worst)),
      heap: median(runs.map((r) => r.heap)),
      nodes: median(runs.map((r) => r.nodes)),
    });
    const a = summary(ours);
    const b = summary(anchor);
    const r = ratio(a.latency, b.latency);
    const rHandlers = ratio(a.handlers, b.handlers);
    console.log(`\n## Form: ${KEYSTROKES.length} keystrokes into "Summary" of a 20-field create form\n`);
    console.log(
      "per keystroke, medians: key → after the next frame | the page's own handlers (and React render)",
    );
    for (const [who, f] of [
      ['ours  ', a],
      ['anchor', b],
    ])
      console.log(
        `${who}  ${msf(f.latency)}${spread(f.latencies)} | ${msf(f.handlers)}${spread(f.handlersAll)}   ` +
          `worst key ${msf(f.worst)}; JS heap ${mib(f.heap)}, ${f.nodes} DOM nodes`,
      );
    console.log(
      `ours ÷ anchor: per keystroke ${x(r)} ${verdict(r, TARGETS.form)} (target ≤ ${TARGETS.form}×); ` +
        `handlers alone ${x(rHandlers)} (info)`,
    );
    if (PROFILE) await measure(screen.path, true)();
    return { ours: a, anchor: b, ratio: r, ratioHandlers: rHandlers };
  }

  // ------------------------------------------------------------------------------------------
  // 4. Cold load

  async function loadBenchmark() {
    const list = screenOf('list', 'Claim');
    const pages = [
      { what: `our list screen ${list.path}, signed in`, path: list.path, storageState, ours: true },
      { what: 'our sign-in page, signed out', path: '/sign-in', ours: true },
      { what: 'anchor: the counter', path: '/anchor/counter/' },
    ];
    console.log('\n## Cold load (fresh context, no cache), medians\n');
    const out = [];
    for (const target of pages) {
      const measure = async (printWaterfall = false) => {
        const { page: p, cdp, close } = await openPage(browser, { storageState: target.storageState });
        if (printWaterfall) await startProfile(cdp);
        await p.goto(url(target.path), { waitUntil: 'load' });
        await p.waitForLoadState('networkidle');
        // settled: no long task for 1 s (at most 15 s)
        for (let waited = 0, last = -1; waited < 15_000; waited += 250) {
          const count = await p.evaluate(() => window.__bench.longTasks.length);
          if (count === last && waited >= 1000) break;
          last = count;
          await p.waitForTimeout(250);
        }
        const b = await recorded(p);
        if (printWaterfall) {
          await waterfall(p, b, target.what);
          printProfile(`  cold load: ${target.what}`, await stopProfile(cdp, CLIENT_DIR), 25);
        }
        await close();
        return {
          fcp: b.fcp,
          lcp: b.lcp,
          lcpElement: b.lcpElement,
          cls: cumulativeLayoutShift(b.shifts),
          tbt: totalBlockingTime(b.longTasks, b.fcp),
        };
      };
      await measure(); // warm-up
      const runs = [];
      for (let r = 0; r < RUNS; r++) runs.push(await measure());
      const m = (key) => median(runs.map((r) => r[key]).filter((v) => v !== null));
      const figures = { what: target.what, fcp: m('fcp'), lcp: m('lcp'), cls: m('cls'), tbt: m('tbt') };
      figures.lcpElement = runs.at(-1).lcpElement;
      if (PROFILE) await measure(true);
      out.push(figures);
      const check = target.ours
        ? `   LCP ${verdict(figures.lcp, TARGETS.lcp)}, CLS ${verdict(figures.cls, TARGETS.cls)}, TBT ${verdict(figures.tbt, TARGETS.tbt)}`
        : '';
      console.log(
        `${target.what.padEnd(40)} FCP ${msf(figures.fcp)}, LCP ${msf(figures.lcp)} (<${figures.lcpElement}>), ` +
          `CLS ${figures.cls.toFixed(3)}, TBT ${msf(figures.tbt)}${check}`,
      );
    }
    console.log(
      `targets: LCP ≤ ${TARGETS.lcp} ms, CLS ≤ ${TARGETS.cls}, TBT ≤ ${TARGETS.tbt} ms (long tasks after FCP, minus 50 ms each)`,
    );
    return out;
  }
}

/**
 * `--profile`: what a cold load did, in order: each resource's request and response end, the paints,
 * the long tasks and the LCP, in ms since navigation.
 */
async function waterfall(page, recorded, what) {
  const events = await page.evaluate(() => [
    ...performance
      .getEntriesByType('navigation')
      .map((e) => [e.responseEnd, `document in (requested ${e.requestStart.toFixed(0)})`]),
    ...performance
      .getEntriesByType('resource')
      .map((e) => [
        e.responseEnd,
        `${new URL(e.name).pathname}${new URL(e.name).search.slice(0, 40)} in (asked ${e.startTime.toFixed(0)}, ${e.initiatorType})`,
      ]),
  ]);
  events.push([recorded.fcp, 'first contentful paint']);
  events.push([recorded.lcp, `largest contentful paint <${recorded.lcpElement}>`]);
  for (const [at, duration] of recorded.longTasks) events.push([at, `long task ${duration.toFixed(0)} ms`]);
  console.log(`\n  waterfall of one cold load: ${what}`);
  for (const [at, text] of events.filter(([at]) => at !== null).sort((a, b) => a[0] - b[0]))
    console.log(`  ${at.toFixed(0).padStart(6)} ms  ${text}`);
}

/** Layout shifts in session windows (gaps < 1 s, at most 5 s long); the largest window's sum. */
function cumulativeLayoutShift(shifts) {
  let best = 0;
  let current = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const [at, value] of shifts) {
    if (at - previous > 1000 || at - windowStart > 5000) {
      current = 0;
      windowStart = at;
    }
    current += value;
    previous = at;
    best = Math.max(best, current);
  }
  return best;
}

/** The sum over long tasks that start after first contentful paint of their time beyond 50 ms. */
function totalBlockingTime(longTasks, fcp) {
  return longTasks
    .filter(([start]) => fcp !== null && start >= fcp)
    .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
}

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nFigures written to ${join(OUT, 'latest.json')}`);
