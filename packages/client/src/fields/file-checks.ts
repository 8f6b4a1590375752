/**
 * What the browser checks of a chosen file before sending it: its size against the field's
 * `maxSize` (or `limits.maxUploadSize`) and its type against the field's `accept`, with the
 * catalogue's messages — the server's own codes, `E_FILE_TOO_LARGE` and `E_FILE_TYPE`. The
 * browser's type comes from the name, so a file it cannot type is left to the server, which sniffs
 * the content and has the last word either way.
 */
import { type Field, type Model, fileAccepts } from '@ninefold/model';
import { message } from '../runtime/messages';

/** What the browser knows of a chosen file. */
export interface ChosenFile {
  readonly name: string;
  readonly size: number;
  /** The media type the browser guessed from the name; empty when it could not. */
  readonly type: string;
}

/**
 * The largest file the field holds, in bytes.
 *
 * @example maxFileSize(model, claim.fields.receipt) // 10485760
 */
export function maxFileSize(model: Model, field: Field): number {
  return field.maxSize ?? model.limits.maxUploadSize;
}

/**
 * Why the field cannot hold the file, as the catalogue says it, or null when it may be sent.
 *
 * @example refusal(model, claim.fields.receipt, { name: 'a.zip', size: 10, type: 'application/zip' })
 * // 'This file is application/zip; Receipt accepts application/pdf, image/*.'
 */
export function refusal(model: Model, field: Field, file: ChosenFile): string | null {
  const limit = maxFileSize(model, field);
  if (file.size > limit) return message(model, 'E_FILE_TOO_LARGE', { field: field.label, limit });
  if (file.type !== '' && !fileAccepts(field.accept, file.type))
    return message(model, 'E_FILE_TYPE', {
      field: field.label,
      type: file.type,
      accept: (field.accept ?? []).join(', '),
    });
  return null;
}

/**
 * The `accept` attribute of the field's file input: its media types, or nothing for any file.
 *
 * @example acceptAttribute(claim.fields.receipt) // 'application/pdf,image/*'
 */
export function acceptAttribute(field: Field): string | undefined {
  return field.accept === null ? undefined : field.accept.join(',');
}

/** Whether the field takes photos, so that a phone may offer its camera. */
export function takesPhotos(field: Field): boolean {
  return field.accept === null || field.accept.some((type) => type.toLowerCase().startsWith('image/'));
}
