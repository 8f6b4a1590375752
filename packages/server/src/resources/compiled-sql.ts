/**
 * SQL compiled once and run many times with new parameters. A list page's SELECT has the same text
 * at every request of the same shape (the same permission filter, sort and limit's place); only its
 * values change (the user's id, the clock, the limit). Building it through Kysely at every request
 * cost a tenth of a list (bench/README.md, `bench:server`).
 */
import { type CompiledQuery } from 'kysely';
import { LruMap } from '../lru-map.js';

/** Texts kept per cache; the least recently used one goes first when it is full. */
const MAX_TEXTS = 128;

/**
 * The SQL text of each shape, compiled on first use. A text is kept only when its compiled
 * parameters are exactly the parameters the caller says it takes, in that order: a later request of
 * the same shape then binds its own values to it, and a shape whose text would hold some value
 * inline (or bind them in another order) is compiled every time instead, never reused.
 *
 * @example
 * const pages = new CompiledSql();
 * const page = pages.query(`${filter.sql}|-createdAt`, [...filter.params, 51], () => query.compile(db));
 * const rows = await database.select(page.sql, page.parameters);
 */
export class CompiledSql {
  readonly #texts: LruMap<string, string>;

  constructor(max = MAX_TEXTS) {
    this.#texts = new LruMap(max);
  }

  /** How many texts are kept. */
  get size(): number {
    return this.#texts.size;
  }

  /**
   * The query of `shape` with `parameters`: its text kept from an earlier request, or compiled now
   * (and kept when the compiled parameters are `parameters`, otherwise answered as compiled).
   */
  query(
    shape: string,
    parameters: readonly unknown[],
    compile: () => CompiledQuery,
  ): { readonly sql: string; readonly parameters: readonly unknown[] } {
    const hit = this.#texts.get(shape);
    if (hit !== undefined) return { sql: hit, parameters };
    const compiled = compile();
    if (!sameParameters(compiled.parameters, parameters)) return compiled;
    this.#texts.set(shape, compiled.sql);
    return compiled;
  }
}

function sameParameters(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}
