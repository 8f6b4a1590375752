/**
 * A file's name is data (decision 0050): kept as the user gave it, within bounds, shown escaped,
 * never used as a path (the store's keys are ids). This module bounds a name on the way in and
 * writes it into `Content-Disposition` on the way out (RFC 6266: an ASCII fallback and the exact
 * name as `filename*=UTF-8''…`).
 */

/** The longest name kept, in code points; the rest is cut. */
export const MAX_FILE_NAME = 255;

/** The name of a file uploaded without one (or with one that held nothing but control characters). */
export const UNNAMED_FILE = 'file';

// C0, DEL and C1 controls (NUL among them), and the bidirectional overrides and isolates that
// would make `invoice\u202Efdp.exe` read as `invoiceexe.pdf`
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * The name to keep for an uploaded file: NFC, without control characters, at most
 * `MAX_FILE_NAME` code points; `file` when nothing is left. Path separators stay as characters.
 *
 * @example storedFileName('../../etc/passwd') // '../../etc/passwd'
 * @example storedFileName('a\u0000b.pdf') // 'ab.pdf'
 */
export function storedFileName(given: string | undefined): string {
  // lone surrogates become U+FFFD, so that the name is well-formed text everywhere
  const wellFormed = Buffer.from(given ?? '', 'utf8').toString('utf8');
  const clean = wellFormed.normalize('NFC').replace(UNSAFE, '');
  const bounded = Array.from(clean).slice(0, MAX_FILE_NAME).join('');
  return bounded.trim() === '' ? UNNAMED_FILE : bounded;
}

/**
 * The `Content-Disposition` of a download: `inline` or `attachment`, an ASCII fallback name in
 * quotes (anything else as `_`), and the exact name percent-encoded as UTF-8.
 *
 * @example contentDisposition('attachment', 'Résumé.pdf')
 * // `attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7E]|["\\%]/gu, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
