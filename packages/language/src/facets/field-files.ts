/**
 * The keys of a file or image field (issue 18, decisions 0050 and 0051): `maxSize`, the largest
 * file it holds, written `10MB`, `512KB`, `1.5GB` or a whole number of bytes (KB, MB and GB are
 * powers of 1024, as `2 * 1024 * 1024` in a rule reads), and `accept`, the media types it takes
 * (`application/pdf`, `image/*`). `limits.maxUploadSize` is read as a size too, by `readSize`.
 */
import { DEFAULT_IMAGE_ACCEPT, type Entity, type Field } from '@ninefold/model';
import { describe, type YEntry, type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { capital } from './reader.js';

/**
 * Whether a field holds files: what no default, transition, display or computed value can give.
 *
 * @example isFileField({ type: 'image' }) // true
 */
export function isFileField(field: Pick<Field, 'type'>): boolean {
  return field.type === 'file' || field.type === 'image';
}

/** The largest size the notation reads: 5 GiB, what one upload may hold. */
export const MAX_FILE_SIZE = 5 * 1024 ** 3;

const UNITS: Readonly<Record<string, number>> = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
const SIZE = /^(\d+(?:\.\d+)?) ?(KB|MB|GB)$/i;
/** `SIZE` (or a whole number written as text) for the notation's JSON Schema. */
export const SIZE_PATTERN = '^([0-9]+|[0-9]+(\\.[0-9]+)? ?([KkMmGg][Bb]))$';
const SIZE_FORMS =
  'write a size like `10MB`, `512KB`, `1.5GB` or a whole number of bytes (KB, MB and GB are powers of 1024)';

/**
 * A size as the notation writes it, in bytes (rounded down to a whole byte), or null when it is
 * not one.
 *
 * @example parseSize('10MB') // 10485760
 * @example parseSize('1.5GB') // 1610612736
 * @example parseSize(2048) // 2048
 * @example parseSize('ten megabytes') // null
 */
export function parseSize(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  if (/^\d+$/.test(value.trim())) return parseSize(Number(value.trim()));
  const m = SIZE.exec(value.trim());
  if (m === null) return null;
  return Math.floor(Number(m[1]) * UNITS[m[2]!.toUpperCase()]!);
}

/**
 * Reads a size key (`maxSize`, `limits.maxUploadSize`), reporting an unreadable one (NF224) and
 * one outside `[min, max]` (`rangeCode`) at its place. Null when there is no usable size.
 *
 * @example readSize(ctx, entry.value, '`maxSize` of field `Claim.receipt`', 1, MAX_FILE_SIZE, 'NF207')
 */
export function readSize(
  ctx: CompileContext,
  node: YNode,
  where: string,
  min: number,
  max: number,
  rangeCode: 'NF207' | 'NF601',
): number | null {
  const raw = node.kind === 'scalar' ? node.value : undefined;
  const size = parseSize(raw);
  if (size === null) {
    ctx.bag.report(
      'NF224',
      node.span,
      `${capital(where)} is not a size, found ${describe(node)}.`,
      SIZE_FORMS,
    );
    return null;
  }
  if (size < min || size > max) {
    ctx.bag.report(
      rangeCode,
      node.span,
      `${capital(where)} must be between ${formatSize(min)} and ${formatSize(max)}, found ${formatSize(size)}.`,
      SIZE_FORMS,
    );
    return null;
  }
  return size;
}

/**
 * A size in bytes as the notation would write it: the largest unit it is a whole number of.
 *
 * @example formatSize(10485760) // '10MB'
 * @example formatSize(1000) // '1000 bytes'
 */
export function formatSize(bytes: number): string {
  for (const unit of ['GB', 'MB', 'KB'] as const) {
    if (bytes >= UNITS[unit]! && bytes % UNITS[unit]! === 0) return `${bytes / UNITS[unit]!}${unit}`;
  }
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** A media type or a family of them, as RFC 6838 names them: `application/pdf`, `image/*`. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;
/** `MEDIA_TYPE` for the notation's JSON Schema (either case: the compiler lowers it). */
export const MEDIA_TYPE_PATTERN =
  '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/(\\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126})$';

/**
 * Reads `accept`: each a media type `type/subtype` or `type/*` (NF228 otherwise), none twice
 * (NF210), an image's all images (NF228). Lower case. The default when absent: any file for a
 * `file`, `DEFAULT_IMAGE_ACCEPT` for an `image`.
 *
 * @example readAccept(ctx, entry, field, 'field `Claim.receipt`') // ['application/pdf', 'image/*']
 */
export function readAccept(
  ctx: CompileContext,
  entry: YEntry | undefined,
  field: Pick<Field, 'type'>,
  where: string,
): readonly string[] | null {
  const fallback = field.type === 'image' ? DEFAULT_IMAGE_ACCEPT : null;
  if (entry === undefined) return fallback;
  const items = ctx.reader.list(entry.value, `\`accept\` of ${where}`);
  if (items.length === 0) {
    ctx.bag.report(
      'NF207',
      entry.value.span,
      `\`accept\` of ${where} lists no media type, so no file would do.`,
      'list what it takes, like `accept: [application/pdf, image/*]`, or leave `accept` out to take any file',
    );
    return fallback;
  }
  const out: string[] = [];
  for (const item of items) {
    const text =
      item.kind === 'scalar' && typeof item.value === 'string' ? item.value.trim().toLowerCase() : null;
    if (text === null || !MEDIA_TYPE.test(text)) {
      ctx.bag.report(
        'NF228',
        item.span,
        `${capital(describe(item))} in \`accept\` of ${where} is not a media type.`,
        'write `type/subtype` or `type/*`, like `application/pdf` or `image/*`',
      );
      continue;
    }
    if (field.type === 'image' && !text.startsWith('image/')) {
      ctx.bag.report(
        'NF228',
        item.span,
        `${capital(where)} is an image, so it cannot accept \`${text}\`.`,
        'accept only `image/…` types on an image, or make it `type: file` to take other files',
      );
      continue;
    }
    if (out.includes(text)) {
      ctx.bag.report(
        'NF210',
        item.span,
        `\`${text}\` is listed twice in \`accept\` of ${where}.`,
        'list each type once',
      );
      continue;
    }
    out.push(text);
  }
  return out.length === 0 ? fallback : out;
}

/**
 * Reads a file or image field's own keys into it: `maxSize` (null until `withUploadLimit` gives it
 * the spec's `limits.maxUploadSize`) and `accept`.
 *
 * @example readFileKeys(ctx, keys, field, 'field `Claim.receipt`')
 */
export function readFileKeys(
  ctx: CompileContext,
  keys: ReadonlyMap<string, YEntry>,
  field: { -readonly [K in 'type' | 'maxSize' | 'accept']: Field[K] },
  where: string,
): void {
  const maxSize = keys.get('maxSize');
  if (maxSize !== undefined)
    field.maxSize = readSize(ctx, maxSize.value, `\`maxSize\` of ${where}`, 1, MAX_FILE_SIZE, 'NF207');
  field.accept = readAccept(ctx, keys.get('accept'), field, where);
}

/**
 * The entities with every file and image field that names no `maxSize` given `limits.maxUploadSize`:
 * the compiled field always carries its limit.
 *
 * @example withUploadLimit(ctx.entities, limits.maxUploadSize).Claim.fields.receipt.maxSize // 10485760
 */
export function withUploadLimit<E extends Entity>(
  entities: Readonly<Record<string, E>>,
  maxUploadSize: number,
): Record<string, E> {
  const out: Record<string, E> = {};
  for (const [name, entity] of Object.entries(entities)) {
    const files = Object.values(entity.fields).filter(
      (f) => (f.type === 'file' || f.type === 'image') && f.maxSize === null,
    );
    if (files.length === 0) {
      out[name] = entity;
      continue;
    }
    const fields = { ...entity.fields };
    for (const f of files) fields[f.name] = { ...f, maxSize: maxUploadSize };
    out[name] = { ...entity, fields };
  }
  return out;
}
