/**
 * The keys a file's bytes are stored under (decision 0050): its id, and one `<id>.w<width>.webp`
 * per image width. Both stores check a key before using it, so a key is never a path (`../x`) nor a
 * name a user gave; removing a file removes every key of it.
 */
import { IMAGE_WIDTHS } from '@ninefold/model';
import { isRecordId } from '../ids.js';

/** A key is an id and maybe a variant: letters, digits, `-`, `_` and `.`, never a path. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{2,200}$/;

/** A key that no store takes (a path, a name, an empty string). */
export class FileKeyError extends Error {
  constructor(key: string) {
    super(`not a file key: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = 'FileKeyError';
  }
}

/**
 * Throws `FileKeyError` unless `key` is a store key: a store calls it before touching anything.
 *
 * @example checkFileKey('f_01J9…'); // fine
 * @example checkFileKey('../etc/passwd'); // throws
 */
export function checkFileKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new FileKeyError(key);
  return key;
}

/**
 * Every key a file's bytes may be under: the original and its image variants.
 *
 * @example fileKeys('f1') // ['f1', 'f1.w64.webp', 'f1.w320.webp', 'f1.w1280.webp']
 */
export function fileKeys(file: string): string[] {
  return [file, ...IMAGE_WIDTHS.map((width) => variantKey(file, width))];
}

/**
 * The key of a file's variant at a width.
 *
 * @example variantKey('0190…', 320) // '0190….w320.webp'
 */
export function variantKey(id: string, width: number): string {
  return `${id}.w${width}.webp`;
}

/**
 * The file a key is of: its id, when the key is one `fileKeys` gives for an id of `newId`'s shape;
 * else null, for anything else a store may hold (another program's object in a shared bucket, a
 * test's key), which no sweep takes for an orphan.
 *
 * @example fileOfKey('0190….w320.webp') // '0190…'
 * @example fileOfKey('notes.txt') // null
 */
export function fileOfKey(key: string): string | null {
  const id = key.split('.', 1)[0] ?? '';
  return isRecordId(id) && fileKeys(id).includes(key) ? id : null;
}
