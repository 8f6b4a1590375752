// Where a server spent its time: reads a .cpuprofile (from `node bench/server/run.js --profile`, which
// runs the Ninefold server under `node --cpu-prof`) and prints self time by package, the top
// functions by self time, and the server's own functions by total time (self plus callees).
//
//   node bench/server/profile-summary.js bench/server/out/CPU.….cpuprofile [top]
import { readFileSync } from 'node:fs';
import { aggregateProfile, frameKey } from '../lib/cpu-profile.js';

const [file, topText = '25'] = process.argv.slice(2);
if (file === undefined) {
  console.error('Usage: node bench/server/profile-summary.js <file.cpuprofile> [top]');
  process.exit(1);
}
const TOP = Number(topText);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// the idle loop between requests is not the server's work
const { self, total, sampled: busy } = aggregateProfile(profile, { skipIdle: true });

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
  if (p !== null) groupOf.set(frameKey(n), p);
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
