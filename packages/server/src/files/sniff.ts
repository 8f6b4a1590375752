/**
 * What a file is, from its first bytes (decision 0050): `file-type` for the binary formats it
 * knows, then our own recognition of text, SVG and HTML, which have no magic number. The name and
 * the part's Content-Type are never believed: only the `.csv` ending chooses between two kinds of
 * text, which no sniffing can tell apart and which are equally harmless.
 */
import { fileTypeFromBuffer } from 'file-type';

/** How many bytes the sniff reads: what `file-type` needs for every format it knows. */
export const SNIFF_BYTES = 4100;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The media type of a file whose first bytes (at most `SNIFF_BYTES`) are `head`; `complete` says
 * whether `head` is the whole file (a text cut mid-character is still text).
 *
 * @example await sniffType(Buffer.from('%PDF-1.7\n…'), 'receipt.pdf', true) // 'application/pdf'
 * @example await sniffType(Buffer.from('a,b\n1,2\n'), 'rows.csv', true) // 'text/csv'
 */
export async function sniffType(head: Uint8Array, name: string, complete: boolean): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found !== undefined) return found.mime;
  const text = utf8Text(head, complete);
  if (text === null) return 'application/octet-stream';
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && /<svg[\s>]/.test(start)))
    return 'image/svg+xml';
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'text/html';
  return name.toLowerCase().endsWith('.csv') ? 'text/csv' : 'text/plain';
}

/** The bytes as text when they are UTF-8 without control characters other than whitespace. */
function utf8Text(head: Uint8Array, complete: boolean): string | null {
  // a character cut by the end of the sniffed bytes is not a fault of the text
  const bytes = complete ? head : head.subarray(0, head.length - incompleteTail(head));
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return /[\u0000-\u0008\u000E-\u001F\u007F]/.test(text) ? null : text;
}

/** How many bytes at the end of `bytes` begin a UTF-8 character that does not end there. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}
