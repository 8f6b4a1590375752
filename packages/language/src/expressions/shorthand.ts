/**
 * Rewrites the shorthand `has(field)` into CEL's `has(self.field)`, outside string literals, and
 * maps offsets in the rewritten text back to the text as written.
 *
 * @example expandHas('amount < 25 || has(receipt)').source // 'amount < 25 || has(self.receipt)'
 */
export function expandHas(text: string): { source: string; original: (offset: number) => number } {
  const inserts: number[] = []; // offsets in the rewritten text where `self.` was inserted
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    const m = /^has\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(text.slice(i, i + 200));
    const before = i === 0 ? '' : text[i - 1]!;
    if (m !== null && !/[A-Za-z0-9_.]/.test(before) && m[1] !== 'self') {
      const open = m[0].indexOf('(') + 1;
      const lead = m[0].slice(0, open) + m[0].slice(open).match(/^\s*/)![0];
      out += lead;
      inserts.push(out.length);
      out += `self.${m[0].slice(lead.length)}`;
      i += m[0].length;
      continue;
    }
    out += c;
    i += 1;
  }
  const original = (offset: number) => offset - 5 * inserts.filter((at) => at < offset).length;
  return { source: out, original };
}

/** The offset just past the string literal starting at `start` (single, double or triple quoted). */
function stringEnd(text: string, start: number): number {
  const q = text[start]!;
  const triple = text.startsWith(q.repeat(3), start);
  const close = triple ? q.repeat(3) : q;
  let i = start + close.length;
  while (i < text.length) {
    if (text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text.startsWith(close, i)) return i + close.length;
    if (!triple && text[i] === '\n') return i;
    i += 1;
  }
  return text.length;
}
