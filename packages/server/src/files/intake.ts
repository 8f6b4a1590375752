/**
 * The stream an upload's bytes pass through on their way to the store (decision 0050): it counts
 * them (one byte over the limit fails the stream with E_FILE_TOO_LARGE) and holds back the first
 * `SNIFF_BYTES` until their type is sniffed and accepted (E_FILE_TYPE otherwise), so that a refused
 * file never reaches the store. Nothing is held beyond those first bytes: memory stays flat whatever
 * the size of the file. The bytes are not hashed: a file's id names bytes that never change, so the
 * id is the download's ETag, and a hash of every byte cost the upload a third of its speed
 * (decision 0053).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { fileAccepts } from '@ninefold/model';
import { ApiError } from '../http/errors.js';
import { SNIFF_BYTES, sniffType } from './sniff.js';
import { type UploadScope } from './upload-scope.js';

/** What the bytes turned out to be, once the stream has ended. */
export interface Measured {
  readonly size: number;
  readonly type: string;
}

/** The stream an upload is piped through. */
export class UploadMeter extends Transform {
  readonly #scope: UploadScope;
  readonly #name: string;
  #size = 0;
  #head: Buffer[] = [];
  #headLength = 0;
  #type: string | null = null;

  /**
   * @example pipeline(part.file, new UploadMeter(scope, name), …)
   */
  constructor(scope: UploadScope, name: string) {
    super();
    this.#scope = scope;
    this.#name = name;
  }

  /**
   * The size and type of what passed, once the stream has ended.
   *
   * @example const { size, type } = meter.measured();
   */
  measured(): Measured {
    if (this.#type === null) throw new Error('the upload has not ended');
    return { size: this.#size, type: this.#type };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#size += chunk.length;
    if (this.#size > this.#scope.limit) {
      done(new ApiError('E_FILE_TOO_LARGE', { limit: this.#scope.limit }));
      return;
    }
    if (this.#type !== null) {
      done(null, chunk);
      return;
    }
    this.#head.push(chunk);
    this.#headLength += chunk.length;
    if (this.#headLength < SNIFF_BYTES) {
      done();
      return;
    }
    this.#decide(false).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    if (this.#type !== null) {
      done();
      return;
    }
    this.#decide(true).then(() => done(), done);
  }

  /** Sniffs the held bytes, refuses a type the scope does not accept, and lets them through. */
  async #decide(complete: boolean): Promise<void> {
    const held = Buffer.concat(this.#head);
    const type = await sniffType(
      held.subarray(0, SNIFF_BYTES),
      this.#name,
      complete && held.length <= SNIFF_BYTES,
    );
    const { accept, fieldLabel } = this.#scope;
    if (!fileAccepts(accept, type)) {
      throw new ApiError('E_FILE_TYPE', { type, field: fieldLabel, accept: (accept ?? []).join(', ') });
    }
    this.#type = type;
    this.#head = [];
    this.push(held);
  }
}
