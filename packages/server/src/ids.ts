/**
 * Record and history ids: UUIDv7 (time-ordered, so that new rows append to the id index), from the
 * `uuidv7` package's generator with its random numbers drawn from the platform's CSPRNG in blocks.
 * The package's default draws eight numbers at a time, a `getRandomValues` call every second id: a
 * fiftieth of a create (bench/README.md, `bench:server`).
 */
import { V7Generator } from 'uuidv7';

/** 32-bit random numbers from `crypto.getRandomValues`, a block at a time. */
export class BlockRandom {
  readonly #block: Uint32Array<ArrayBuffer>;
  #next: number;

  constructor(size = 1024) {
    this.#block = new Uint32Array(size);
    this.#next = size;
  }

  nextUint32(): number {
    if (this.#next >= this.#block.length) {
      globalThis.crypto.getRandomValues(this.#block);
      this.#next = 0;
    }
    return this.#block[this.#next++] as number;
  }
}

const generator = new V7Generator(new BlockRandom());

/**
 * A new UUIDv7, greater than every id this process made before it.
 *
 * @example newId() // '019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d55'
 */
export function newId(): string {
  return generator.generate().toString();
}

/** A UUID as `newId` writes it: lower-case hex in groups of 8-4-4-4-12. */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether text has the shape of a record id. Every id is `newId`'s, so text of another shape names
 * no record: a route answers it without asking the database, alike on every dialect (a NUL
 * character in a PostgreSQL parameter would fail the query).
 *
 * @example isRecordId('019ab3c2-7f10-7a3e-9c4d-2b8f0e6a1d55') // true
 * @example isRecordId('\u0000') // false
 */
export function isRecordId(text: string): boolean {
  return RECORD_ID.test(text);
}
