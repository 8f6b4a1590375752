/**
 * Valid values for any field of any model, found with the engine itself: candidates from each
 * field's type and constraints, then the ones the spec's rules accept (`validateRecord` is the
 * oracle, the same function the server enforces with). The demo data and the browser tests both
 * make their records with it.
 */
import { type UserContext, type WireRecord, applyDefaults, validateRecord } from '@ninefold/engine';
import { type Field, type FileInfo, type Model, type Value, fileAccepts } from '@ninefold/model';
import { realisticCandidates } from './realistic.js';

/**
 * How generated values read: realistic ones for a demo series (ordinal 1 or more: names, titles,
 * amounts, dates spread over weeks; `realistic.ts`), `E2E Title …` for the tests (ordinal 0).
 */
export interface Wording {
  /** Put before a field's label in the tests' generated text. */
  readonly prefix: string;
  /** Which record of a series this is (1, 2, …): varies the numbers, dates and choices. */
  readonly ordinal: number;
  /** The demo's seed: the same seed makes the same values (default `ninefold`). */
  readonly seed?: string;
  /** Another try at the same record, after the server refused the first (a unique value taken). */
  readonly attempt?: number;
  /** Days from today of the record's dates, when it must fall on one day (a queue of today's). */
  readonly days?: number;
}

/** The seed of demo values when none is given. */
export const DEMO_SEED = 'ninefold';

const TEST_WORDING: Wording = { prefix: 'E2E', ordinal: 0 };

let counter = 0;
/** A short token unique in the run, for unique fields. */
export function token(): string {
  counter += 1;
  return `${Date.now().toString(36).slice(-4)}${counter.toString(36)}`;
}

/** A random string matching a simple regular expression (literals, classes, groups, quantifiers). */
export function sampleRegex(pattern: string, random: () => number = Math.random): string {
  const pick = (chars: string) => chars[Math.floor(random() * chars.length)] ?? 'a';
  let i = 0;
  const src = pattern;
  function atomSet(): string {
    // the characters a class or escape may stand for
    const c = src[i++]!;
    if (c === '\\') {
      const e = src[i++]!;
      if (e === 'd') return '0123456789';
      if (e === 'w') return 'abcdefghijklmnopqrstuvwxyz';
      if (e === 's') return ' ';
      return e;
    }
    if (c === '[') {
      let set = '';
      const negate = src[i] === '^';
      if (negate) i++;
      while (src[i] !== ']') {
        let a = src[i++]!;
        if (a === '\\') a = src[i++]!;
        if (src[i] === '-' && src[i + 1] !== ']') {
          i++;
          let b = src[i++]!;
          if (b === '\\') b = src[i++]!;
          for (let code = a.charCodeAt(0); code <= b.charCodeAt(0); code++) set += String.fromCharCode(code);
        } else set += a;
      }
      i++;
      return negate ? 'abcdefghijklmnopqrstuvwxyz'.replace(new RegExp(`[${set}]`, 'g'), '') : set;
    }
    if (c === '.') return 'abcdefghijklmnopqrstuvwxyz';
    return c;
  }
  function quantifier(): [number, number] {
    const c = src[i];
    if (c === '+') return (i++, [1, 3]);
    if (c === '*') return (i++, [0, 2]);
    if (c === '?') return (i++, [0, 1]);
    if (c === '{') {
      const end = src.indexOf('}', i);
      const [lo, hi] = src.slice(i + 1, end).split(',');
      i = end + 1;
      const min = Number(lo);
      return [min, hi === undefined ? min : hi === '' ? min + 2 : Number(hi)];
    }
    return [1, 1];
  }
  function sequence(): string {
    let out = '';
    while (i < src.length && src[i] !== ')' && src[i] !== '|') {
      if (src[i] === '^' || src[i] === '$') {
        i++;
        continue;
      }
      let gen: () => string;
      if (src[i] === '(') {
        i++;
        if (src.startsWith('?:', i)) i += 2;
        const start = i;
        const first = sequence();
        while (src[i] === '|') {
          i++;
          sequence();
        }
        i++; // ')'
        const end = i - 1;
        const body = src.slice(start, end);
        gen = () => (first === '' ? '' : sampleRegex(body.split('|')[0] ?? '', random));
      } else {
        const set = atomSet();
        gen = () => pick(set);
      }
      const [lo, hi] = quantifier();
      const n = lo + Math.floor(random() * (hi - lo + 1));
      for (let k = 0; k < n; k++) out += gen();
    }
    return out;
  }
  return sequence();
}

function fitLength(field: Field, text: string): string {
  const min = typeof field.minLength?.value === 'number' ? field.minLength.value : 0;
  const max = typeof field.maxLength?.value === 'number' ? field.maxLength.value : 200;
  let out = text;
  while (out.length < min) out += ' and more';
  return out.slice(0, max).trimEnd().padEnd(Math.min(min, max), 'x');
}

const DAY = 86_400_000;

/** Colours a demo record picks from, in turn. */
const COLORS = ['#1e90ff', '#2e8b57', '#ff8c00', '#c71585', '#708090'];

/** The list starting at its `by`-th element (wrapping), so a series of records varies its choices. */
function rotate<T>(list: readonly T[], by: number): T[] {
  const k = list.length === 0 ? 0 : by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

const decimals = (field: Field) => field.scale ?? (field.type === 'money' ? 2 : 2);

function num(bound: Field['min']): number | null {
  return bound === null ? null : Number(bound.value);
}

/** Candidate values of a field, the most ordinary first. */
export function candidates(
  field: Field,
  now: Date,
  refIds: Readonly<Record<string, readonly string[]>>,
  wording: Wording = TEST_WORDING,
  /** The files a file or image field may hold (none by default: such fields stay empty). */
  files: readonly FileInfo[] = [],
  /** The entity of the record: with a demo wording, values read like real data for it. */
  entity?: string,
): Value[] {
  if (wording.ordinal > 0 && entity !== undefined) {
    const realism = {
      entity,
      ordinal: wording.ordinal,
      seed: wording.seed ?? DEMO_SEED,
      ...(wording.attempt === undefined ? {} : { attempt: wording.attempt }),
      ...(wording.days === undefined ? {} : { days: wording.days }),
    };
    const realistic = realisticCandidates(field, now, realism, sampleRegex);
    if (realistic !== null) return realistic;
  }
  const unique = token();
  const label = field.label || field.name;
  const { prefix, ordinal } = wording;
  const slug = prefix.toLowerCase();
  // test values are unique in the run; demo values read as a numbered series, unique where they must be
  const mark = ordinal === 0 ? unique : field.unique ? `${ordinal} (${unique})` : String(ordinal);
  switch (field.type) {
    case 'string':
    case 'text': {
      if (field.pattern !== null) return [0, 1, 2, 3, 4].map(() => sampleRegex(field.pattern!));
      const base =
        field.type === 'text'
          ? `${prefix} ${label.toLowerCase()} ${mark}, written to show what this field holds.`
          : `${prefix} ${label.toLowerCase()} ${mark}`;
      return [fitLength(field, base), fitLength(field, `Another ${label.toLowerCase()} ${unique}`)];
    }
    case 'email':
      return [`${slug}-${unique}@example.com`];
    case 'url':
      return [`https://example.com/${slug}/${unique}`];
    case 'phone':
      return ['+41 44 123 45 67'];
    case 'integer':
    case 'decimal':
    case 'money': {
      const lo = num(field.min);
      const hi = num(field.max);
      const clamp = (n: number) => Math.min(hi ?? n, Math.max(lo ?? n, n));
      const scale = field.type === 'integer' ? 0 : decimals(field);
      const fmt = (n: number) => (field.type === 'integer' ? Math.round(n) : n.toFixed(scale));
      const seed = field.unique ? 1000 + Math.floor(Math.random() * 8000) : 10 + 37 * ordinal;
      const list = [clamp(seed), clamp(1), lo, hi, clamp(2), clamp(100)].filter(
        (n): n is number => n !== null,
      );
      return [...new Set(list)].map(fmt);
    }
    case 'boolean':
      return [true, false];
    case 'date': {
      const today = new Date(now.getTime() - ordinal * DAY).toISOString().slice(0, 10);
      const lo = field.min === null ? null : String(field.min.value);
      const hi = field.max === null ? null : String(field.max.value);
      return [today, lo, hi].filter((v): v is string => v !== null);
    }
    case 'time': {
      const list = ['12:00:00', field.min?.value, field.max?.value, '10:00:00', '15:00:00'];
      return list
        .filter((v): v is string => typeof v === 'string')
        .map((v) => (v.length === 5 ? `${v}:00` : v));
    }
    case 'datetime': {
      const list = [now.toISOString(), field.min?.value, field.max?.value];
      return list.filter((v): v is string => typeof v === 'string');
    }
    case 'enum': {
      const values = rotate(field.values ?? [], ordinal);
      return field.many ? [[values[0] ?? '']] : values;
    }
    case 'ref': {
      const ids = rotate(refIds[field.to ?? ''] ?? [], ordinal);
      return field.many ? (ids.length > 0 ? [[ids[0]!]] : []) : ids;
    }
    case 'json':
      return [{ e2e: true }];
    case 'color':
      return rotate(COLORS, ordinal);
    case 'file':
    case 'image': {
      // a sample file the field takes, to be uploaded before the record names it (`files.ts`)
      const taken = files.filter(
        (file) =>
          fileAccepts(field.accept, file.type) && (field.maxSize === null || file.size <= field.maxSize),
      );
      const values = taken.map((file): Value => ({ ...file }));
      return field.many ? values.map((file) => [file]) : values;
    }
  }
}

/**
 * Days from now of the timed fields of a series of demo records, by ordinal (1, 2, …, cycling):
 * mostly in the past, so that a demo opens on timers that fired right after it started (a loan
 * already overdue), and some in the future, so that it shows timers still waiting.
 */
const AROUND_NOW_DAYS = [5, -2, -4, -1, 9, -6];

/**
 * A date or datetime value near now for the `ordinal`-th record of a demo series (none for other
 * types, or for test values, whose ordinal is 0): what a timed transition's `at` field gets.
 *
 * @example aroundNow(dueAtField, new Date('2026-03-10T09:00:00Z'), 2) // ['2026-03-08T09:00:00.000Z']
 */
export function aroundNow(field: Field, now: Date, ordinal: number): Value[] {
  if (ordinal < 1) return [];
  const days = AROUND_NOW_DAYS[(ordinal - 1) % AROUND_NOW_DAYS.length]!;
  const at = new Date(now.getTime() + days * DAY).toISOString();
  if (field.type === 'datetime') return [at];
  if (field.type === 'date') return [at.slice(0, 10)];
  return [];
}

/**
 * The fields of an entity that a timed transition fires at (`at:`), in the order of its transitions.
 *
 * @example timedFields(model, 'Loan') // ['dueAt']
 */
export function timedFields(model: Model, entity: string): string[] {
  const transitions = Object.values(model.states[entity]?.transitions ?? {});
  const fields = transitions.flatMap((t) => (t.timer !== null && 'at' in t.timer ? [t.timer.at] : []));
  return [...new Set(fields)];
}

export interface Generated {
  /** The values chosen here: what a person types into the form (defaults are left as they are). */
  readonly input: Record<string, Value>;
  /** The whole record as the engine normalises it. */
  readonly record: Record<string, Value>;
}

/**
 * A record the engine accepts for a create (or the patch of a transition), choosing values only for
 * the fields that need one: required fields without a default, and those the rules complain about.
 *
 * @example generateRecord(model, 'Claim', user, { writable: ['title', 'amount'], refIds: {} })
 */
export function generateRecord(
  model: Model,
  entity: string,
  user: UserContext | null,
  options: {
    readonly writable: readonly string[];
    readonly refIds: Readonly<Record<string, readonly string[]>>;
    readonly now?: Date;
    readonly operation?: 'create' | { readonly transition: string };
    readonly old?: WireRecord | null;
    /** Fields that must get a value even when optional (a transition's `require`). */
    readonly need?: readonly string[];
    /**
     * Fields a demo record (ordinal 1 or more) gives a value even when a default fills them: the
     * fields a timed transition fires at, near now (see {@link aroundNow}), so that a demo's timers
     * are spread around its start; any other field, its first candidate (an owner named by its
     * creator: another user).
     */
    readonly spread?: readonly string[];
    readonly wording?: Wording;
    /** Sample files a file field may be given when it needs one (required, or a rule asks). */
    readonly files?: readonly FileInfo[];
  },
): Generated {
  const now = options.now ?? new Date();
  const def = model.entities[entity];
  if (def === undefined) throw new Error(`no entity ${entity}`);
  const operation = options.operation ?? 'create';
  const clock = { now };
  const pool: Record<string, Value[]> = {};
  const index: Record<string, number> = {};
  const input: Record<string, Value> = {};
  const choose = (name: string) => {
    const field = def.fields[name];
    if (field === undefined || !options.writable.includes(name)) return false;
    pool[name] ??= [
      ...(options.spread?.includes(name) ? aroundNow(field, now, options.wording?.ordinal ?? 0) : []),
      ...candidates(field, now, options.refIds, options.wording, options.files, entity),
    ];
    const i = index[name] ?? -1;
    if (i + 1 >= pool[name]!.length) return false;
    index[name] = i + 1;
    input[name] = pool[name]![i + 1]!;
    return true;
  };
  /** Fields a demo record fills though nothing asks for them (see {@link fillsInDemo}). */
  const optional = new Set<string>();
  const base = operation === 'create' ? applyDefaults(model, entity, {}, { user, ...clock }) : {};
  for (const field of Object.values(def.fields)) {
    const present = operation === 'create' ? base[field.name] : options.old?.[field.name];
    const empty =
      present === undefined || present === null || (Array.isArray(present) && present.length === 0);
    if ((field.required || options.need?.includes(field.name)) && empty) choose(field.name);
    else if (
      operation === 'create' &&
      options.spread?.includes(field.name) &&
      (options.wording?.ordinal ?? 0) > 0
    )
      choose(field.name);
    else if (
      operation === 'create' &&
      (options.wording?.ordinal ?? 0) > 0 &&
      fillsInDemo(model, entity, field) &&
      choose(field.name)
    )
      optional.add(field.name);
  }
  for (let attempt = 0; attempt < 40; attempt++) {
    const whole = operation === 'create' ? applyDefaults(model, entity, input, { user, ...clock }) : input;
    const checked = validateRecord(model, entity, whole, {
      operation,
      user,
      old: options.old ?? null,
      ...clock,
    });
    if (checked.ok) return { input, record: checked.record };
    let moved = false;
    for (const error of checked.errors) {
      const rule = model.rules.find((r) => r.error === error.code && r.entity === entity);
      const names = [
        ...(error.field === null ? [] : [error.field]),
        ...(rule?.fields ?? []),
        ...(rule?.assert.names ?? []),
        ...(rule?.when?.names ?? []),
        // `has(receipt)` reads `has(self.receipt)`: its names say `self`, the field is after it
        ...selfMembers(rule?.assert.source),
      ].filter((n, k, all) => all.indexOf(n) === k && def.fields[n] !== undefined);
      // a rule that names a file asks for one ("a receipt above the threshold"): attach one first
      // rather than change the other values
      const isFile = (name: string) =>
        def.fields[name]!.type === 'file' || def.fields[name]!.type === 'image';
      names.sort((a, b) => Number(isFile(b)) - Number(isFile(a)));
      for (const name of names) {
        if (choose(name)) {
          moved = true;
          break;
        }
      }
      // out of candidates: a value given only to make the demo read well is left out instead
      const dropped = moved ? undefined : names.find((name) => optional.has(name));
      if (dropped !== undefined) {
        delete input[dropped];
        optional.delete(dropped);
        moved = true;
      }
    }
    if (!moved) {
      throw new Error(
        `Could not find valid values for a ${entity} (${JSON.stringify(operation)}): ${checked.errors
          .map((e) => `${e.field ?? '-'} ${e.code}`)
          .join(', ')} with ${JSON.stringify(input)}`,
      );
    }
  }
  throw new Error(`Could not find valid values for a ${entity}`);
}

/**
 * Whether a demo record fills the field though neither the spec nor a rule asks for it, so that the
 * demo reads like real data: plain text (a merchant, a description), contact details, and dates
 * that a default would set to today (spread over weeks instead). Numbers, choices, refs and files
 * stay empty, as do the fields a transition writes (a rejection's reason belongs to the rejection).
 */
function fillsInDemo(model: Model, entity: string, field: Field): boolean {
  if (field.readonly || field.computed !== null) return false;
  const transitions = Object.values(model.states[entity]?.transitions ?? {});
  if (transitions.some((t) => t.require.includes(field.name) || field.name in t.set)) return false;
  switch (field.type) {
    case 'string':
      return field.pattern === null;
    case 'text':
    case 'email':
    case 'phone':
    case 'url':
      return true;
    case 'date':
    case 'datetime':
      return field.default !== null;
    default:
      return false;
  }
}

/** The fields an expression reads as `self.<field>` (`has(receipt)` compiles to `has(self.receipt)`). */
function selfMembers(source: string | undefined): string[] {
  return [...(source ?? '').matchAll(/\bself\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}
