/**
 * The nearest candidate to a misspelt name, or null when nothing is close enough to be a typo.
 *
 * @example nearest('maxLenght', ['maxLength', 'minLength']) // 'maxLength'
 */
export function nearest(name: string, candidates: Iterable<string>): string | null {
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate.toLowerCase() === lower) return candidate;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  // a third of the name, at least one edit: "amout" → "amount", but not "x" → "id"
  const allowed = Math.max(1, Math.floor(name.length / 3));
  return bestDistance <= allowed ? best : null;
}

/** `did you mean `x`?` for a hint, or the list of valid names when nothing is close. */
export function suggestion(name: string, candidates: readonly string[], noun = 'name'): string {
  const near = nearest(name, candidates);
  if (near !== null) return `did you mean \`${near}\`?`;
  if (candidates.length === 0) return `no ${noun} is declared here`;
  const shown = candidates.slice(0, 12).map((c) => `\`${c}\``);
  return `expected one of ${shown.join(', ')}${candidates.length > 12 ? ', …' : ''}`;
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("lenght"). */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
