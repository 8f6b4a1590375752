// Aggregates a V8 .cpuprofile into self and total time per function.

/**
 * Self and total milliseconds per frame key (`function  file:line`), and the milliseconds sampled.
 * With `skipIdle`, samples in `(idle)` (a server waiting for requests) are left out.
 */
export function aggregateProfile(profile, { skipIdle = false } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const total = new Map();
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000; // ms until the next sample
    let node = byId.get(profile.samples[i]);
    if (skipIdle && node.callFrame.functionName === '(idle)') continue;
    sampled += dt;
    self.set(frameKey(node), (self.get(frameKey(node)) ?? 0) + dt);
    const seen = new Set();
    for (; node !== undefined; node = byId.get(parent.get(node.id))) {
      const k = frameKey(node);
      if (seen.has(k)) continue; // recursion counts once
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  return { self, total, sampled };
}

/** Where a frame is: a package-relative file and line. */
export function frameWhere(cf) {
  const url = cf.url.replace(/^file:\/\//, '');
  const short = url.includes('/node_modules/')
    ? url.slice(url.lastIndexOf('/node_modules/') + 14)
    : url.replace(/^.*\/packages\//, 'packages/');
  return short === '' ? '' : `${short}:${cf.lineNumber + 1}`;
}

/** A frame's key: its function and where it is. */
export function frameKey(node) {
  return `${node.callFrame.functionName || '(anonymous)'}  ${frameWhere(node.callFrame)}`;
}
