// Where a server spent its time: reads a .cpuprofile (from `node bench/server/run.js --profile`, which
// runs the Ninefold server under `node --cpu-prof`) and prints self time by package, the top
// functions by self time, and the server's own functions by total time (self plus callees).
//
//   node bench/server/profile-summary.js bench/server/out/CPU.….cpuprofile [top]
import { readFileSync } from 'node:fs';

const [file, topText = '25'] = process.argv.slice(2);
if (file === undefined) {
  console.error('Usage: node bench/server/profile-summary.js <file.cpuprofile> [top]');
  process.exit(1);
}
const TOP = Number(topText);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const short = url.includes('/node_modules/')
    ? url.slice(url.lastIndexOf('/node_modules/') + 14)
    : url.replace(/^.*\/packages\//, 'packages/');
  return short === '' ? '' : `${short}:${cf.lineNumber + 1}`;
};
const key = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame)}`;
const self = new Map();
const total = new Map();
let busy = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  let node = byId.get(profile.samples[i]);
  // the idle loop between requests is not the server's work
  if (node.callFrame.functionName === '(idle)') continue;
  busy += dt;
  self.set(key(node), (self.get(key(node)) ?? 0) + dt);
  const seen = new Set();
  for (; node !== undefined; node = byId.get(parent.get(node.id))) {
    const k = key(node);
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + dt);
  }
}

const pct = (v) => `${((100 * v) / busy).toFixed(1).padStart(5)}%`;
const show = (map, filter) =>
  [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .forEach(([k, v]) => console.log(`  ${pct(v)}  ${k}`));

const groupOf = new Map(); // key → package, from the frame's file
const group = (k) => groupOf.get(k) ?? '(node runtime and native: http, sqlite, crypto)';
function packageOf(cf) {
  const url = cf.url;
  if (url.includes('/node_modules/')) {
    const [first, second] = url.slice(url.lastIndexOf('/node_modules/') + 14).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.includes('/packages/')) return `@ninefold/${url.split('/packages/')[1].split('/')[0]}`;
  return cf.functionName === '(garbage collector)' ? '(garbage collector)' : null;
}
for (const n of profile.nodes) {
  const p = packageOf(n.callFrame);
  if (p !== null) groupOf.set(key(n), p);
}
const groups = new Map();
for (const [k, v] of self) groups.set(group(k), (groups.get(group(k)) ?? 0) + v);

console.log(`${file}: ${(busy / 1000).toFixed(1)} s of busy samples (idle excluded)`);
console.log('\nself time by package');
for (const [g, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(v)}  ${g}`);
console.log(`\ntop ${TOP} functions by self time`);
show(self, () => true);
console.log(`\ntop ${TOP} Ninefold functions by total time (self + callees)`);
show(total, (k) => k.includes('packages/'));
