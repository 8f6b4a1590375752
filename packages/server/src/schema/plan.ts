/**
 * A migration plan: the steps from the schema last applied to the schema the model asks for, each
 * marked lossy or not, and its printed form.
 */
import { type Column, type Index, type Schema, type Table, canonicalJson } from './schema.js';

export type Step =
  | { readonly kind: 'create-table'; readonly table: Table }
  | { readonly kind: 'drop-table'; readonly table: Table }
  | { readonly kind: 'add-column'; readonly table: string; readonly column: Column }
  /**
   * `retired`: a column of one of the server's own tables that this version of the server no longer
   * keeps (say, a digest it stopped computing). Its values were the server's, never a product's
   * data, so dropping it loses nothing anyone wrote: not lossy.
   */
  | {
      readonly kind: 'drop-column';
      readonly table: string;
      readonly column: Column;
      readonly retired?: true;
    }
  /** Same storage, compatible meaning (text → string, more enum values): nothing to do in SQL. */
  | { readonly kind: 'relabel-column'; readonly table: string; readonly from: Column; readonly to: Column }
  /** Incompatible meaning: the old values are deleted and the column starts empty. */
  | { readonly kind: 'retype-column'; readonly table: string; readonly from: Column; readonly to: Column }
  | {
      readonly kind: 'rescale-column';
      readonly table: string;
      readonly column: Column;
      readonly fromScale: number;
      readonly toScale: number;
    }
  | {
      readonly kind: 'narrow-enum';
      readonly table: string;
      readonly column: Column;
      readonly removed: readonly string[];
    }
  | { readonly kind: 'require-column'; readonly table: string; readonly column: Column }
  /**
   * A field becoming a list of refs (decision 0044): its column's ids (a JSON list, or one id) move
   * into its new join table, in order, and the column goes. Runs after the join table is created.
   */
  | { readonly kind: 'fill-join-table'; readonly table: Table; readonly from: Column }
  /** A single ref becomes a foreign key (decision 0043); existing rows that dangle stop the migration. */
  | { readonly kind: 'add-foreign-key'; readonly table: string; readonly column: Column }
  | { readonly kind: 'drop-foreign-key'; readonly table: string; readonly column: Column }
  | { readonly kind: 'create-index'; readonly index: Index }
  | { readonly kind: 'drop-index'; readonly index: Index };

export interface Plan {
  readonly steps: readonly Step[];
  /** True when some step deletes or rewrites data, or leaves records invalid. */
  readonly lossy: boolean;
}

/** Whether a step loses data (or leaves existing records without a required value). */
export function isLossy(step: Step): boolean {
  switch (step.kind) {
    case 'drop-column':
      return step.retired !== true;
    case 'drop-table':
    case 'retype-column':
    case 'narrow-enum':
      return true;
    case 'rescale-column':
      return step.toScale < step.fromScale;
    case 'add-column':
    case 'require-column':
      return step.column.required && step.column.backfill === null && !step.column.notNull;
    default:
      return false;
  }
}

/**
 * The plan from one schema to another; `from` null is an empty database.
 *
 * Steps come in the order they run: indexes and foreign keys that go away first, then tables and
 * columns, then new foreign keys and indexes, so that no column is dropped under an index or a
 * foreign key and neither waits for its column or table.
 */
export function diffSchemas(from: Schema | null, to: Schema): Plan {
  const before = from?.tables ?? {};
  const drops: Step[] = [];
  const changes: Step[] = [];
  const creates: Step[] = [];
  const dropIndexes: Step[] = [];
  const createIndexes: Step[] = [];
  const dropKeys: Step[] = [];
  const addKeys: Step[] = [];

  for (const old of Object.values(before)) {
    if (to.tables[old.name] === undefined) drops.push({ kind: 'drop-table', table: old });
  }
  const fills: Step[] = [];
  for (const table of Object.values(to.tables)) {
    let old = before[table.name];
    if (old !== undefined && canonicalJson(old.join ?? null) !== canonicalJson(table.join ?? null)) {
      // a join table that joins something else now: its rows mean nothing there
      drops.push({ kind: 'drop-table', table: old });
      old = undefined;
    }
    if (old === undefined) {
      const moved = movedList(before, table, drops);
      if (moved !== null) fills.push({ kind: 'fill-join-table', table, from: moved });
      creates.push({ kind: 'create-table', table });
      for (const index of table.indexes) createIndexes.push({ kind: 'create-index', index });
      continue;
    }
    // columns whose indexes must be rebuilt: dropped or recreated under them
    const touched = new Set<string>();
    for (const column of old.columns) {
      if (!table.columns.some((c) => c.name === column.name)) {
        const retired = old.entity === null && old.join === undefined;
        drops.push({ kind: 'drop-column', table: table.name, column, ...(retired ? { retired } : {}) });
        touched.add(column.name);
      }
    }
    for (const column of table.columns) {
      const was = old.columns.find((c) => c.name === column.name);
      if (was === undefined) {
        changes.push({ kind: 'add-column', table: table.name, column });
        continue;
      }
      const step = columnChange(table.name, was, column);
      if (step !== null) changes.push(step);
      // a retyped column is dropped and added again: its foreign key goes and comes with it
      if (step?.kind !== 'retype-column' && !sameForeignKey(was, column)) {
        if (was.references !== undefined)
          dropKeys.push({ kind: 'drop-foreign-key', table: table.name, column: was });
        if (column.references !== undefined)
          addKeys.push({ kind: 'add-foreign-key', table: table.name, column });
      }
      if (step?.kind === 'retype-column') touched.add(column.name);
      else if (!was.required && column.required) {
        changes.push({ kind: 'require-column', table: table.name, column });
      }
    }
    for (const index of old.indexes) {
      const now = table.indexes.find((i) => i.name === index.name);
      const stale = now === undefined || !sameIndex(index, now) || index.columns.some((c) => touched.has(c));
      if (stale) dropIndexes.push({ kind: 'drop-index', index });
    }
    for (const index of table.indexes) {
      const was = old.indexes.find((i) => i.name === index.name);
      const fresh = was === undefined || !sameIndex(was, index) || index.columns.some((c) => touched.has(c));
      if (fresh) createIndexes.push({ kind: 'create-index', index });
    }
  }
  const steps = [
    ...dropIndexes,
    ...dropKeys,
    ...drops,
    ...changes,
    ...creates,
    ...fills,
    ...addKeys,
    ...createIndexes,
  ];
  return { steps, lossy: steps.some(isLossy) };
}

/**
 * The column a new join table's ids come from: the holder's column of the same field, when it held
 * ids of the same entity (a JSON list, or a single ref). Its drop step, if planned, is taken out of
 * `drops`: the fill step drops the column once its ids are moved.
 */
function movedList(before: Readonly<Record<string, Table>>, table: Table, drops: Step[]): Column | null {
  const join = table.join;
  if (join === undefined) return null;
  const column = before[join.holder]?.columns.find((c) => c.name === join.field);
  const target = table.columns.find((c) => c.name === 'target')?.meaning;
  if (column === undefined || target === undefined) return null;
  if (column.meaning !== target && column.meaning !== `${target}[]`) return null;
  const at = drops.findIndex(
    (s) => s.kind === 'drop-column' && s.table === join.holder && s.column.name === join.field,
  );
  if (at >= 0) drops.splice(at, 1);
  return column;
}

/**
 * How a column changes, or null when it does not. Also how `compatibility.ts` tells whether an
 * instance can read and write a column as another spec left it.
 *
 * @example columnChange('notes', text, string)?.kind // 'relabel-column'
 */
export function columnChange(table: string, from: Column, to: Column): Step | null {
  if (from.storage !== to.storage || from.primaryKey !== to.primaryKey || from.notNull !== to.notNull) {
    return { kind: 'retype-column', table, from, to };
  }
  if (from.meaning !== to.meaning) {
    const fromScale = scaleOf(from.meaning);
    const toScale = scaleOf(to.meaning);
    if (fromScale !== null && toScale !== null) {
      return fromScale === toScale
        ? { kind: 'relabel-column', table, from, to } // decimal ↔ money of the same scale
        : { kind: 'rescale-column', table, column: to, fromScale, toScale };
    }
    if (widensToText(from.meaning, to.meaning)) return { kind: 'relabel-column', table, from, to };
    return { kind: 'retype-column', table, from, to };
  }
  if (from.values !== null && to.values !== null) {
    const removed = from.values.filter((v) => !to.values?.includes(v));
    if (removed.length > 0) return { kind: 'narrow-enum', table, column: to, removed };
    if (to.values.length !== from.values.length) return { kind: 'relabel-column', table, from, to };
  }
  // becoming required is a step of its own (require-column)
  if ((from.required && !to.required) || from.backfill !== to.backfill) {
    return { kind: 'relabel-column', table, from, to };
  }
  return null;
}

/** Integers are minor units of scale 0, so they convert to decimals and money without loss. */
function scaleOf(meaning: string): number | null {
  if (meaning === 'integer') return 0;
  const match = /^(?:decimal|money)\/(\d+)$/.exec(meaning);
  return match === null ? null : Number(match[1]);
}

/** Any single text value is a valid string or text. */
function widensToText(from: string, to: string): boolean {
  return (to === 'string' || to === 'text') && !from.endsWith('[]') && from !== 'json';
}

function sameForeignKey(a: Column, b: Column): boolean {
  return a.references?.table === b.references?.table && a.references?.onDelete === b.references?.onDelete;
}

function sameIndex(a: Index, b: Index): boolean {
  return (
    a.table === b.table &&
    a.unique === b.unique &&
    a.columns.join(',') === b.columns.join(',') &&
    a.textColumns.join(',') === b.textColumns.join(',')
  );
}

/**
 * The plan as a reader sees it: one line per step, `!` before every lossy one.
 *
 * @example
 * formatPlan(plan)
 * // ! drop column claims.receipt (its values are deleted)
 * //   add column claims.note (text)
 */
export function formatPlan(plan: Plan): string {
  if (plan.steps.length === 0) return '  (nothing to do)';
  return plan.steps.map((step) => `${isLossy(step) ? '!' : ' '} ${describe(step)}`).join('\n');
}

function describe(step: Step): string {
  switch (step.kind) {
    case 'create-table':
      return `create table ${step.table.name}${step.table.entity === null ? '' : ` for ${step.table.entity}`}`;
    case 'drop-table':
      return `drop table ${step.table.name}${step.table.entity === null ? '' : ` of ${step.table.entity}`} (every record in it is deleted)`;
    case 'add-column': {
      const base = `add column ${step.table}.${step.column.name} (${step.column.meaning})`;
      if (step.column.backfill !== null)
        return `${base}, existing records get ${JSON.stringify(step.column.backfill)}`;
      return isLossy(step) ? `${base}: required without a default, existing records have no value` : base;
    }
    case 'drop-column':
      return step.retired === true
        ? `drop column ${step.table}.${step.column.name} (the server no longer keeps it)`
        : `drop column ${step.table}.${step.column.name} (its values are deleted)`;
    case 'relabel-column':
      return `change ${step.table}.${step.to.name} from ${label(step.from)} to ${label(step.to)} (no data changes)`;
    case 'retype-column':
      return `change ${step.table}.${step.to.name} from ${label(step.from)} to ${label(step.to)} (its values are deleted)`;
    case 'rescale-column':
      return step.toScale > step.fromScale
        ? `rescale ${step.table}.${step.column.name} from ${step.fromScale} to ${step.toScale} decimal places`
        : `rescale ${step.table}.${step.column.name} from ${step.fromScale} to ${step.toScale} decimal places (values are rounded)`;
    case 'narrow-enum':
      return `remove ${step.removed.join(', ')} from ${step.table}.${step.column.name} (records with them lose the value)`;
    case 'require-column':
      return step.column.backfill === null
        ? `make ${step.table}.${step.column.name} required without a default (existing records may have no value)`
        : `make ${step.table}.${step.column.name} required, existing empty values get ${JSON.stringify(step.column.backfill)}`;
    case 'add-foreign-key':
      return `make ${step.table}.${step.column.name} a foreign key to ${step.column.references?.table ?? '?'}`;
    case 'drop-foreign-key':
      return `drop the foreign key of ${step.table}.${step.column.name}`;
    case 'create-index':
      return `create ${step.index.unique ? 'unique ' : ''}index ${step.index.name} on ${step.index.table} (${step.index.columns.join(', ')})`;
    case 'drop-index':
      return `drop index ${step.index.name}`;
    case 'fill-join-table':
      return `move ${step.table.join?.holder ?? '?'}.${step.from.name} into ${step.table.name} (every list kept, in order)`;
  }
}

function label(column: Column): string {
  return column.values === null ? column.meaning : `${column.meaning} (${column.values.join(', ')})`;
}
