/**
 * What an upload is, from its first bytes (decision 0053): `file-type` for binary formats, then
 * text, SVG and HTML by our own reading; the name chooses only between plain text and CSV.
 */
import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES, sniffType } from '../src/files/sniff.js';
import { EXE, PDF, image } from './files-world.js';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('sniffType', () => {
  it('believes the bytes, never the name', async () => {
    expect(await sniffType(PDF, 'photo.png', true)).toBe('application/pdf');
    expect(await sniffType(await image('png', 4, 4), 'receipt.pdf', true)).toBe('image/png');
    expect(await sniffType(await image('jpeg', 4, 4), 'a', true)).toBe('image/jpeg');
    expect(await sniffType(EXE, 'invoice.pdf', true)).toBe('application/x-msdownload');
  });

  it('reads text, SVG and HTML, which have no magic number', async () => {
    expect(await sniffType(text('Lunch, 12 €\n'), 'notes', true)).toBe('text/plain');
    expect(await sniffType(text('a,b\n1,2\n'), 'rows.CSV', true)).toBe('text/csv');
    expect(await sniffType(text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.png', true)).toBe(
      'image/svg+xml',
    );
    expect(
      await sniffType(
        text('\uFEFF  <?xml version="1.0"?>\n<!-- x -->\n<svg viewBox="0 0 1 1"></svg>'),
        'a',
        true,
      ),
    ).toBe('image/svg+xml');
    expect(await sniffType(text('<?xml version="1.0"?><note/>'), 'a.svg', true)).not.toBe('image/svg+xml');
    expect(await sniffType(text('<!DOCTYPE html><p>hi'), 'a.txt', true)).toBe('text/html');
    expect(await sniffType(text('  <HTML><body>'), 'a.txt', true)).toBe('text/html');
  });

  it('takes bytes that are not UTF-8 text, or hold control characters, for an unknown binary', async () => {
    expect(await sniffType(Buffer.from([0x80, 0x81, 0x00, 0x41]), 'a.txt', true)).toBe(
      'application/octet-stream',
    );
    expect(await sniffType(text('abc\u0000def'), 'a.txt', true)).toBe('application/octet-stream');
    expect(await sniffType(Buffer.from([0xc3, 0x28]), 'a.txt', true)).toBe('application/octet-stream');
  });

  it('does not hold a character cut by the end of the sniffed bytes against the text', async () => {
    const long = text(`${'a'.repeat(SNIFF_BYTES - 1)}é and more`).subarray(0, SNIFF_BYTES);
    expect(await sniffType(long, 'a.txt', false)).toBe('text/plain');
    // the same cut at the true end of a file is not UTF-8
    expect(await sniffType(long, 'a.txt', true)).toBe('application/octet-stream');
  });
});
