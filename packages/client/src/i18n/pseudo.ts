/**
 * Pseudo-localisation (decision 0067): English made about 40% longer, its letters accented and every
 * text bracketed — `[Ŝàṽé ····]` — so that a text the catalogues miss shows as plain English, and a
 * box too small for a longer language clips or overlaps where a test can see it. ICU syntax is kept:
 * only the text outside braces changes.
 */
import { type Messages } from './catalogue';

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'à',
  e: 'é',
  i: 'î',
  o: 'ö',
  u: 'ü',
  c: 'ç',
  n: 'ñ',
  s: 'š',
  y: 'ý',
  z: 'ž',
  A: 'À',
  E: 'É',
  I: 'Î',
  O: 'Ö',
  U: 'Ü',
  C: 'Ç',
  N: 'Ñ',
  S: 'Š',
  Y: 'Ý',
  Z: 'Ž',
};

/**
 * One template, pseudo-localised.
 *
 * @example pseudoMessage('Save {name}') // '[Šàvé {name} ·····]'
 */
export function pseudoMessage(template: string): string {
  let depth = 0;
  let out = '';
  let letters = 0;
  for (const char of template) {
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (depth === 0 && char !== '}') {
      out += ACCENTED[char] ?? char;
      if (/\p{L}/u.test(char)) letters += 1;
    } else out += char;
  }
  return `[${out} ${'·'.repeat(Math.ceil(letters * 0.4))}]`;
}

/** A catalogue, pseudo-localised. */
export function pseudoMessages(messages: Messages): Messages {
  return Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, pseudoMessage(text)]));
}
