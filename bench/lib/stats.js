// Small helpers every benchmark runner shares.

/** The value after `name` on the command line, or `fallback`. */
export function argument(name, fallback) {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

/** The median of a list of numbers: machines are noisy, so runs are summarised by it. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
