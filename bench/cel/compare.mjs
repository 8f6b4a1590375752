#!/usr/bin/env node
// CEL library speed comparison for ADR 0002 (docs/decisions/0002-cel-library.md).
//
// Needs these devDependencies (exact versions measured in the ADR):
//   "@marcbachmann/cel-js": "8.0.0"   <- the chosen library
//   "@bufbuild/cel": "0.6.1"          (+ its peer "@bufbuild/protobuf": "^2.6.2")
//   "cel-js": "0.8.2"
//
// Run from the repo root:  node bench/cel/compare.mjs
// Options (env vars): CEL_BENCH_RUNS=5 (runs per case, median reported)
//                     CEL_BENCH_MS=300 (target duration of one run, ms)
//
// What it measures, per library and expression:
//   eval   : ops/sec of evaluating an already-compiled expression (parse once, evaluate many)
//   parse  : ops/sec of parse (+ type-check where the library has a checker: only
//            @marcbachmann/cel-js does; @bufbuild/cel 0.6.1 exports no checker, cel-js has none)
// Medians of CEL_BENCH_RUNS runs; ratio = chosen / other (>1 means the chosen library is faster).
// Peak memory = max process.memoryUsage().rss sampled after every run (process-wide).

const RUNS = Number(process.env.CEL_BENCH_RUNS ?? 5);
const RUN_MS = Number(process.env.CEL_BENCH_MS ?? 300);
const CHOSEN = '@marcbachmann/cel-js';

let peakRss = 0;
const sampleRss = () => {
  const r = process.memoryUsage().rss;
  if (r > peakRss) peakRss = r;
  return r;
};

// ---- the expressions (Ninefold-style conditions) and their activations -------------
// ints are bigint for the CEL-correct libraries; cel-js (0.8) only knows JS numbers.
const CASES = [
  {
    name: 'threshold || has()',
    src: 'amount <= RECEIPT_THRESHOLD || has(self.receipt)',
    ctx: { amount: 12000n, RECEIPT_THRESHOLD: 5000n, self: { receipt: 'r-1' } },
    expect: true,
  },
  {
    name: 'state && owner',
    src: "state == 'draft' && submittedBy == user.id",
    ctx: { state: 'draft', submittedBy: 'u1', user: { id: 'u1', roles: ['admin', 'staff'] } },
    expect: true,
  },
  {
    name: 'size && startsWith',
    src: "size(title) > 3 && title.startsWith('A')",
    ctx: { title: 'Annual report' },
    expect: true,
  },
  {
    name: "'admin' in roles",
    src: "'admin' in user.roles",
    ctx: { user: { id: 'u1', roles: ['staff', 'admin'] } },
    expect: true,
  },
];

const toNumbers = (v) => {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(toNumbers);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toNumbers(x)]));
  return v;
};

// ---- library adapters: { version, compile(src) -> (ctx) => value, parseCheck(src) } --
async function loadAdapters() {
  const { readFileSync, existsSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  // package.json is not in these packages' "exports", so walk up from the resolved entry point
  const version = (name) => {
    try {
      let dir = dirname(fileURLToPath(import.meta.resolve(name)));
      for (;;) {
        const pj = join(dir, 'package.json');
        if (existsSync(pj)) {
          const j = JSON.parse(readFileSync(pj, 'utf8'));
          if (j.name === name) return j.version;
        }
        const up = dirname(dir);
        if (up === dir) return '?';
        dir = up;
      }
    } catch {
      return '?';
    }
  };
  const adapters = [];
  // a library that is not installed is reported and skipped, not fatal
  const load = async (name) => {
    try {
      return await import(name);
    } catch (e) {
      console.log(`  ${name}: not installed, skipped (${e.code ?? e.message})`);
      return null;
    }
  };

  const marc = await load('@marcbachmann/cel-js');
  if (marc) {
    const { Environment } = marc;
    const env = new Environment()
      .registerVariable('amount', 'int')
      .registerVariable('RECEIPT_THRESHOLD', 'int')
      .registerVariable('state', 'string')
      .registerVariable('submittedBy', 'string')
      .registerVariable('title', 'string')
      .registerVariable({ name: 'self', schema: { receipt: 'string' } })
      .registerVariable({ name: 'user', schema: { id: 'string', roles: 'list<string>' } });
    adapters.push({
      name: '@marcbachmann/cel-js',
      version: version('@marcbachmann/cel-js'),
      parseLabel: 'parse+check',
      compile: (src) => env.parse(src),
      parseCheck: (src) => {
        const r = env.check(src); // parses and type-checks
        if (!r.valid) throw r.error;
        return r;
      },
      ctx: (c) => c,
    });
  }

  const cel = await load('@bufbuild/cel');
  if (cel) {
    const { CelScalar, mapType, celEnv, parse, plan, isCelError } = cel;
    const env = celEnv({
      variables: {
        amount: CelScalar.INT,
        RECEIPT_THRESHOLD: CelScalar.INT,
        state: CelScalar.STRING,
        submittedBy: CelScalar.STRING,
        title: CelScalar.STRING,
        self: mapType(CelScalar.STRING, CelScalar.DYN),
        user: mapType(CelScalar.STRING, CelScalar.DYN),
      },
    });
    adapters.push({
      name: '@bufbuild/cel',
      version: version('@bufbuild/cel'),
      parseLabel: 'parse+plan',
      compile: (src) => {
        const run = plan(env, parse(src));
        return (ctx) => {
          const r = run(ctx);
          if (isCelError(r)) throw r;
          return r;
        };
      },
      parseCheck: (src) => plan(env, parse(src)), // no public checker in 0.6.x
      ctx: (c) => c,
    });
  }

  const celjs = await load('cel-js');
  if (celjs) {
    adapters.push({
      name: 'cel-js',
      version: version('cel-js'),
      parseLabel: 'parse',
      compile: (src) => {
        const r = celjs.parse(src);
        if (!r.isSuccess) throw new Error(r.errors.join('; '));
        return (ctx) => celjs.evaluate(r.cst, ctx);
      },
      parseCheck: (src) => {
        const r = celjs.parse(src);
        if (!r.isSuccess) throw new Error(r.errors.join('; '));
        return r;
      },
      ctx: toNumbers,
    });
  }
  return adapters;
}

// ---- timing ---------------------------------------------------------------------------
let sink = 0;
function opsPerSec(fn) {
  // calibrate a batch size that takes ~RUN_MS/10
  let batch = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) if (fn()) sink++;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (ms >= RUN_MS / 10 || batch > 1e8) break;
    batch *= 2;
  }
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    let n = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < RUN_MS) {
      for (let i = 0; i < batch; i++) if (fn()) sink++;
      n += batch;
      elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    results.push((n / elapsed) * 1000);
    sampleRss();
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)];
}

const fmt = (n) =>
  n >= 1e6 ? (n / 1e6).toFixed(2) + 'M' : n >= 1e3 ? (n / 1e3).toFixed(1) + 'k' : n.toFixed(0);

async function main() {
  const adapters = await loadAdapters();
  console.log(`node ${process.version}, ${RUNS} runs x ${RUN_MS} ms per case, medians (ops/sec)\n`);
  const table = {}; // table[case][lib] = {eval, parse}
  const peakByLib = {};
  for (const a of adapters) {
    for (const c of CASES) {
      const ctx = a.ctx(c.ctx);
      let fn;
      try {
        fn = a.compile(c.src);
        const got = fn(ctx);
        if (got !== c.expect) throw new Error(`wrong result ${String(got)}`);
      } catch (e) {
        console.log(`  ${a.name}: ${c.name}: SKIPPED (${String(e.message).split('\n')[0]})`);
        (table[c.name] ??= {})[a.name] = null;
        continue;
      }
      const evalOps = opsPerSec(() => fn(ctx));
      const parseOps = opsPerSec(() => a.parseCheck(c.src));
      (table[c.name] ??= {})[a.name] = { eval: evalOps, parse: parseOps };
    }
    peakByLib[a.name] = sampleRss();
  }

  const others = adapters.filter((a) => a.name !== CHOSEN);
  const chosen = adapters.find((a) => a.name === CHOSEN);
  if (!chosen) throw new Error(`${CHOSEN} is not installed: see the devDependencies at the top of this file`);
  for (const kind of ['eval', 'parse']) {
    console.log(
      kind === 'eval'
        ? '== evaluate (compiled once)'
        : '== compile (' + adapters.map((a) => `${a.name}: ${a.parseLabel}`).join(', ') + ')',
    );
    const header = [
      'expression'.padEnd(22),
      ...adapters.map((a) => `${a.name}@${a.version}`.padStart(28)),
      ...others.map((o) => `ratio vs ${o.name}`.padStart(24)),
    ];
    console.log(header.join(' '));
    for (const c of CASES) {
      const row = table[c.name];
      const cells = adapters.map((a) => (row[a.name] ? fmt(row[a.name][kind]) : 'n/a').padStart(28));
      const ratios = others.map((o) =>
        (row[chosen.name] && row[o.name]
          ? (row[chosen.name][kind] / row[o.name][kind]).toFixed(2) + 'x'
          : 'n/a'
        ).padStart(24),
      );
      console.log([c.name.padEnd(22), ...cells, ...ratios].join(' '));
    }
    console.log();
  }
  console.log(
    'peak RSS (process-wide max, MiB):',
    (peakRss / 2 ** 20).toFixed(1),
    "| RSS after each library's section:",
    Object.entries(peakByLib)
      .map(([k, v]) => `${k}=${(v / 2 ** 20).toFixed(1)}`)
      .join(', '),
  );
  if (sink < 0) console.log(sink);
}

await main();
