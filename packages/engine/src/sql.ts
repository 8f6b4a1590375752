/**
 * Read permissions and list filters as SQL WHERE clauses, so a list returns only the rows the user
 * may see, at database speed. Translates exactly the CEL subset of
 * packages/language/src/expressions/sql-subset.ts over the storage encoding of storage.ts.
 *
 * NULL is the SQL face of an evaluation error (decision 0003): an absent value is NULL, every
 * operator propagates NULL where CEL propagates the error, and AND/OR absorb it exactly as CEL's
 * commutative `&&`/`||` do; a row whose condition is NULL is excluded, as an erroring permission denies.
 * Whatever involves only request-time values (`user`, `now`, `today`, constants) is evaluated here
 * by CEL itself and bound as a parameter or folded into TRUE/FALSE. A file's members are read out of
 * the JSON its column holds (sql-files.ts).
 */
import { type ASTNode } from '@marcbachmann/cel-js';
import {
  type Access,
  type Entity,
  type Expr,
  type Model,
  isShadowedName,
  recordSchema,
} from '@ninefold/model';
import { celSource } from './cel-source.js';
import { activation, entityOf, environment, evaluate } from './expressions.js';
import { type Clock, type UserContext } from './record.js';
import { compareUnits } from './sql-decimals.js';
import { fileCountSql, fileFieldNamed, fileMemberSql } from './sql-files.js';
import { isDuration, timeArithmetic, timeComparison, timeValue } from './sql-time.js';
import { listHolds, listNotEmpty, listSize, type JoinListSql } from './sql-lists.js';
import { type Dialect, isJoinList } from './storage.js';

export interface SqlOptions extends Clock {
  readonly user: UserContext | null;
  readonly dialect: Dialect;
  /** Qualifies every column with this table name or alias. */
  readonly table?: string;
  /** The join table of a list of refs (decision 0044); without it such a list has no SQL form. */
  readonly listTable?: (entity: string, field: string) => string;
}

/** A WHERE condition with `?` placeholders and their values, in order. */
export interface SqlFilter {
  readonly sql: string;
  readonly params: unknown[];
}

/** An expression outside the SQL subset: the compiler reports these, so only ad-hoc filters meet it. */
export class SqlTranslationError extends Error {
  override readonly name = 'SqlTranslationError';
}

/** `instant`: an instant as milliseconds since 1970 (after arithmetic); `duration`: milliseconds. */
type SqlType = 'bool' | 'int' | 'double' | 'string' | 'timestamp' | 'instant' | 'duration' | 'null' | 'list';

interface Frag {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly type: SqlType;
  /** A value known now, without the row (constants, user, now, today, literals). */
  readonly folded?: { readonly value: unknown };
  /** A bare decimal or money column: compared against known numbers in exact minor units. */
  readonly decimal?: { readonly column: string; readonly scale: number };
  /** Items of a list known now. */
  readonly items?: readonly Frag[];
  /** Text that is always a `YYYY-MM-DD` date: a date field, or date arithmetic's result. */
  readonly date?: boolean;
}

/**
 * A WHERE condition selecting exactly the rows for which an expression (or an access: `true`,
 * `false`, or any of its conditions) holds for the user.
 *
 * @example
 * toSqlFilter(model, 'Claim', "own || state == 'submitted'", { user, now, dialect: 'sqlite' })
 * // { sql: '("submittedBy" = ? OR "state" = ?)', params: ['u1', 'submitted'] }
 */
export function toSqlFilter(
  model: Model,
  entity: string,
  filter: Expr | string | Access,
  options: SqlOptions,
): SqlFilter {
  if (filter === true) return { sql: '1=1', params: [] };
  if (filter === false) return { sql: '1=0', params: [] };
  const sources =
    typeof filter === 'string'
      ? [filter]
      : 'any' in filter
        ? filter.any.map((e) => e.source)
        : [filter.source];
  if (sources.length === 0) return { sql: '1=0', params: [] };
  const t = new Translator(model, entityOf(model, entity), options);
  const parts = sources.map((s) => t.condition(s));
  const live = parts.filter((p) => p.sql !== '1=0');
  if (live.some((p) => p.sql === '1=1')) return { sql: '1=1', params: [] };
  if (live.length === 0) return { sql: '1=0', params: [] };
  if (live.length === 1) return live[0]!;
  return { sql: live.map((p) => `(${p.sql})`).join(' OR '), params: live.flatMap((p) => p.params) };
}

/**
 * Rewrites `?` placeholders as PostgreSQL's `$1, $2, …` (the filters hold no string literals).
 *
 * @example numberedPlaceholders('"a" = ? AND "b" = ?') // '"a" = $1 AND "b" = $2'
 */
export function numberedPlaceholders(sql: string, start = 1): string {
  let n = start - 1;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const SQL_OP: Readonly<Record<string, string>> = {
  '==': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const FLIP: Readonly<Record<string, string>> = {
  '==': '==',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

class Translator {
  readonly #schema: Readonly<Record<string, string>>;
  readonly #vars: Record<string, unknown>;

  constructor(
    private readonly model: Model,
    private readonly entity: Entity,
    private readonly options: SqlOptions,
  ) {
    this.#schema = recordSchema(entity, model.states[entity.name]);
    this.#vars = activation(model, null, null, options);
  }

  /** A whole condition: folded values become 1=1 / 1=0. */
  condition(source: string): SqlFilter {
    let ast: ASTNode;
    try {
      ast = environment(this.model, this.entity.name).parse(source).ast;
    } catch (error) {
      throw new SqlTranslationError(`the filter does not parse: ${(error as Error).message.split('\n')[0]}`);
    }
    const frag = this.#node(ast, true);
    if (frag.folded !== undefined) return { sql: frag.folded.value === true ? '1=1' : '1=0', params: [] };
    if (frag.type !== 'bool' && frag.type !== 'null')
      throw new SqlTranslationError('the filter is not a condition');
    return { sql: frag.sql, params: [...frag.params] };
  }

  get #pg(): boolean {
    return this.options.dialect === 'postgres';
  }

  #column(name: string): string {
    const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
    return this.options.table === undefined ? quote(name) : `${quote(this.options.table)}.${quote(name)}`;
  }

  /** Whether a subtree reads the row: record fields, `self`, `own` or `old`. */
  #readsRow(n: ASTNode): boolean {
    switch (n.op) {
      case 'id':
        return (
          n.args === 'self' ||
          n.args === 'own' ||
          n.args === 'old' ||
          (Object.hasOwn(this.#schema, n.args) && !isShadowedName(n.args))
        );
      case 'value':
        return false;
      case '.':
      case '.?':
        return this.#readsRow(n.args[0]);
      case 'call':
        return n.args[1].some((a) => this.#readsRow(a));
      case 'rcall':
        return this.#readsRow(n.args[1]) || n.args[2].some((a) => this.#readsRow(a));
      case 'list':
        return n.args.some((a) => this.#readsRow(a));
      case 'map':
        return n.args.some(([k, v]) => this.#readsRow(k) || this.#readsRow(v));
      case '!_':
      case '-_':
        return this.#readsRow(n.args);
      default:
        return (n.args as ASTNode[]).some((a) => this.#readsRow(a));
    }
  }

  /**
   * `positive`: the node is reached from the WHERE clause through AND and OR only, where NULL and
   * FALSE both exclude the row, so a condition need not tell them apart.
   */
  #node(n: ASTNode, positive = false): Frag {
    if (!this.#readsRow(n)) return this.#fold(n);
    switch (n.op) {
      case 'id':
        return n.args === 'own' ? this.#own(positive) : this.#field(n.args);
      case '.': {
        const [target, name] = n.args;
        // a member of a file: read out of the JSON its column holds (decision 0051)
        const file = fileFieldNamed(this.entity, target);
        const member =
          file?.many === false
            ? fileMemberSql(this.#column(file.name), name, this.options.dialect)
            : undefined;
        if (member !== undefined) return { ...member, params: [] };
        if (target.op === 'id' && target.args === 'self') return this.#field(name);
        throw new SqlTranslationError('only `self.field` and `user.field` can be selected in a query');
      }
      case '&&':
      case '||': {
        const a = this.#node(n.args[0], positive);
        const b = this.#node(n.args[1], positive);
        return join(['(', a, n.op === '&&' ? ' AND ' : ' OR ', b, ')'], 'bool');
      }
      case '!_':
        return join(['(NOT ', this.#node(n.args), ')'], 'bool');
      case '-_': {
        const a = this.#node(n.args);
        // the CEL library has no negation of a duration: an error, NULL here
        if (a.type === 'duration') return this.#null('null');
        return join(['(- ', a, ')'], a.type);
      }
      case '?:': {
        const [c, a, b] = [this.#node(n.args[0]), this.#node(n.args[1]), this.#node(n.args[2])];
        // CASE would take the ELSE branch for a NULL condition; CEL errors, so NULL it stays
        const frag = join(
          ['(CASE WHEN ', c, ' THEN ', a, ' WHEN NOT ', c, ' THEN ', b, ' END)'],
          a.type === 'null' ? b.type : a.type,
        );
        return a.date === true && b.date === true ? { ...frag, date: true } : frag;
      }
      case '+':
      case '-':
      case '*':
      case '/':
        return this.#arithmetic(n.op, this.#node(n.args[0]), this.#node(n.args[1]));
      case 'in': {
        const list = this.#joinList(n.args[1]);
        if (list !== null) return this.#inList(this.#node(n.args[0]), list, positive);
        return this.#in(this.#node(n.args[0]), n.args[1]);
      }
      case 'call':
        return this.#call(n.args[0], n.args[1]);
      case 'rcall':
        return this.#method(n.args[0], this.#node(n.args[1]), n.args[2]);
      default:
        if (COMPARISONS.has(n.op)) {
          const [l, r] = n.args as [ASTNode, ASTNode];
          return this.#compare(n.op, this.#node(l), this.#node(r));
        }
        throw new SqlTranslationError(`\`${n.op}\` has no SQL translation`);
    }
  }

  #field(name: string): Frag {
    const type = Object.hasOwn(this.#schema, name) ? this.#schema[name] : undefined;
    const column = this.#column(name);
    switch (type) {
      case 'int':
        return { sql: column, params: [], type: 'int' };
      case 'bool':
        return { sql: column, params: [], type: 'bool' };
      case 'string':
        return { sql: column, params: [], type: 'string', date: this.entity.fields[name]?.type === 'date' };
      case 'google.protobuf.Timestamp':
        return { sql: column, params: [], type: 'timestamp' };
      case 'double': {
        const scale = this.entity.fields[name]?.scale ?? 2;
        const real = this.#real(column);
        const sql = scale === 0 ? real : `(${real} / ${this.#real(`1${'0'.repeat(scale)}`)})`;
        return { sql, params: [], type: 'double', decimal: { column, scale } };
      }
      default:
        throw new SqlTranslationError(
          `\`${name}\` is ${type === undefined ? 'not a field' : 'a list or json'}, and is not compared inside SQL queries`,
        );
    }
  }

  /** The join table of a node naming a list of refs (`members`, `self.members`), or null. */
  #joinList(n: ASTNode): JoinListSql | null {
    const name =
      n.op === 'id'
        ? n.args
        : n.op === '.' && n.args[0].op === 'id' && n.args[0].args === 'self'
          ? n.args[1]
          : null;
    const field = name === null ? undefined : this.entity.fields[name];
    if (field === undefined || !isJoinList(field)) return null;
    if (this.options.listTable === undefined)
      throw new SqlTranslationError(`\`${field.name}\` is a list with no table to query`);
    return { table: this.options.listTable(this.entity.name, field.name), holderId: this.#column('id') };
  }

  /** `item in list` over a list of refs: `positive` as in `#node`. */
  #inList(item: Frag, list: JoinListSql, positive: boolean): Frag {
    if (item.type === 'null') return this.#null('bool');
    if (item.type !== 'string')
      throw new SqlTranslationError('a list of refs holds ids: compare it with text');
    const strict = positive ? null : { itemMayBeNull: item.folded === undefined };
    // the item's SQL appears twice when strict and not folded: its parameters twice too
    const twice = strict?.itemMayBeNull === true;
    return {
      sql: listHolds(list, item.sql, strict),
      params: twice ? [...item.params, ...item.params] : [...item.params],
      type: 'bool',
    };
  }

  #real(sql: string): string {
    return `CAST(${sql} AS ${this.#pg ? 'DOUBLE PRECISION' : 'REAL'})`;
  }

  #own(positive: boolean): Frag {
    const owner = this.entity.owner;
    if (owner === null || this.options.user === null) return this.#value(false);
    // where NULL and FALSE exclude the row alike, the bare comparison lets an index on the owner serve it
    if (positive) return join([this.#field(owner), ' = ', this.#value(this.options.user.id)], 'bool');
    // own is false, not an error, when the record has no owner: COALESCE keeps `!own` true there
    return join(
      ['COALESCE(', this.#field(owner), ' = ', this.#value(this.options.user.id), ', FALSE)'],
      'bool',
    );
  }

  /** Evaluates a subtree that does not read the row, with CEL itself. An error is NULL. */
  #fold(n: ASTNode): Frag {
    const outcome = evaluate(this.model, null, celSource(n), this.#vars);
    return outcome.ok ? this.#value(outcome.value) : this.#null('null');
  }

  #null(type: SqlType): Frag {
    const sql = this.#pg && type === 'bool' ? 'CAST(NULL AS BOOLEAN)' : 'NULL';
    return { sql, params: [], type, folded: { value: null } };
  }

  #value(value: unknown): Frag {
    const folded = { value };
    const pg = this.#pg;
    if (value === null || value === undefined) return this.#null('null');
    if (typeof value === 'boolean')
      return { sql: value ? 'TRUE' : 'FALSE', params: [], type: 'bool', folded };
    if (typeof value === 'bigint')
      return { sql: value < 0n ? `(${value})` : `${value}`, params: [], type: 'int', folded };
    if (typeof value === 'number') {
      return { sql: pg ? 'CAST(? AS DOUBLE PRECISION)' : '?', params: [value], type: 'double', folded };
    }
    if (typeof value === 'string')
      return { sql: pg ? 'CAST(? AS TEXT)' : '?', params: [value], type: 'string', folded };
    if (value instanceof Date || isDuration(value)) {
      const time = timeValue(value, this.options.dialect);
      if (time !== null) return { ...time, folded };
    }
    if (value instanceof Date) {
      return { sql: pg ? 'CAST(? AS TEXT)' : '?', params: [value.toISOString()], type: 'timestamp', folded };
    }
    if (Array.isArray(value)) {
      const items = value.map((v) => this.#value(v));
      return { sql: '', params: [], type: 'list', folded, items };
    }
    throw new SqlTranslationError('maps and messages have no SQL form');
  }

  #compare(op: string, l: Frag, r: Frag): Frag {
    if (l.type === 'null' || r.type === 'null') return this.#null('bool');
    const time = timeComparison(SQL_OP[op]!, l, r, this.options.dialect);
    if (time !== null) return time;
    if (l.decimal !== undefined && r.folded !== undefined && isNumber(r.folded.value)) {
      return compareUnits(op, l.decimal, Number(r.folded.value));
    }
    if (r.decimal !== undefined && l.folded !== undefined && isNumber(l.folded.value)) {
      return compareUnits(FLIP[op]!, r.decimal, Number(l.folded.value));
    }
    if (l.decimal !== undefined && r.decimal !== undefined && l.decimal.scale === r.decimal.scale) {
      // the same scale: minor units order as the doubles do
      return { sql: `(${l.decimal.column} ${SQL_OP[op]} ${r.decimal.column})`, params: [], type: 'bool' };
    }
    const textual = l.type === 'string' || l.type === 'timestamp';
    const collate = textual && this.#pg && op !== '==' && op !== '!=' ? ' COLLATE "C"' : '';
    return join(['(', l, `${collate} ${SQL_OP[op]} `, r, ')'], 'bool');
  }

  #arithmetic(op: '+' | '-' | '*' | '/', a: Frag, b: Frag): Frag {
    // an operand known to be absent: CEL's error whatever the other operand's type, so no type to keep
    if (a.type === 'null' || b.type === 'null') return this.#null('null');
    let time: ReturnType<typeof timeArithmetic>;
    try {
      time = timeArithmetic(op, a, b, this.options.dialect);
    } catch (error) {
      throw new SqlTranslationError((error as Error).message);
    }
    if (time !== null) return time.type === 'null' ? this.#null(time.type) : time;
    if (op === '+' && a.type === 'string') return join(['(', a, ' || ', b, ')'], 'string');
    if (a.type === 'int' || a.type === 'double') {
      // division by zero: CEL errors on ints (NULL here); for doubles it gives ±Infinity, SQL NULL (decision 0004)
      if (op === '/') return join(['(', a, ' / NULLIF(', b, ', 0))'], a.type);
      return join(['(', a, ` ${op} `, b, ')'], a.type);
    }
    throw new SqlTranslationError(`arithmetic on ${a.type} values has no SQL translation`);
  }

  #in(item: Frag, listNode: ASTNode): Frag {
    let list: readonly Frag[] | null = null;
    if (!this.#readsRow(listNode)) {
      const folded = this.#fold(listNode);
      if (folded.type === 'null') return this.#null('bool');
      list = folded.items ?? null;
    } else if (listNode.op === 'list') list = listNode.args.map((x) => this.#node(x));
    if (list === null) {
      throw new SqlTranslationError(
        "`in` needs a list written out, like `state in ['a', 'b']`, or `user.roles`",
      );
    }
    if (list.some((x) => x.type === 'null')) return this.#null('bool');
    if (list.length === 0)
      return {
        sql: `(CASE WHEN ${item.sql} IS NULL THEN NULL ELSE FALSE END)`,
        params: item.params,
        type: 'bool',
      };
    const parts: (string | Frag)[] = ['(', item, ' IN ('];
    list.forEach((x, i) => parts.push(i === 0 ? '' : ', ', x));
    parts.push('))');
    const test = join(parts, 'bool');
    const unknown = list.filter((x) => x.folded === undefined);
    if (unknown.length === 0) return test;
    // CEL builds the whole list first, so one absent item is an error even when another matches
    const guard: (string | Frag)[] = ['(CASE WHEN '];
    unknown.forEach((x, i) => guard.push(i === 0 ? '' : ' OR ', x, ' IS NULL'));
    guard.push(' THEN NULL ELSE ', test, ' END)');
    return join(guard, 'bool');
  }

  #call(fn: string, args: readonly ASTNode[]): Frag {
    const arg = args[0];
    const list = arg === undefined ? null : this.#joinList(arg);
    if (list !== null && fn === 'has' && arg?.op === '.')
      return { sql: listNotEmpty(list), params: [], type: 'bool' };
    if (list !== null && fn === 'size') return { sql: listSize(list), params: [], type: 'int' };
    const files = arg === undefined ? undefined : fileFieldNamed(this.entity, arg);
    if (fn === 'size' && files?.many === true)
      return { sql: fileCountSql(this.#column(files.name), this.options.dialect), params: [], type: 'int' };
    if (fn === 'has' && arg !== undefined && arg.op === '.') {
      const [target, name] = arg.args;
      if (target.op === 'id' && target.args === 'self' && Object.hasOwn(this.#schema, name)) {
        return { sql: `(${this.#column(name)} IS NOT NULL)`, params: [], type: 'bool' };
      }
    }
    if (fn === 'size' && arg !== undefined) {
      const a = this.#node(arg);
      if (a.type === 'null') return this.#null('int');
      if (a.type === 'string') return join(['LENGTH(', a, ')'], 'int');
    }
    throw new SqlTranslationError(`the function \`${fn}\` has no SQL translation here`);
  }

  #method(fn: string, target: Frag, args: readonly ASTNode[]): Frag {
    const argNode = args[0];
    if (target.type === 'null') return this.#null('bool');
    if (
      !['startsWith', 'endsWith', 'contains'].includes(fn) ||
      argNode === undefined ||
      target.type !== 'string'
    ) {
      throw new SqlTranslationError(`the method \`${fn}\` has no SQL translation`);
    }
    const arg = this.#node(argNode);
    if (arg.type === 'null') return this.#null('bool');
    if (arg.folded !== undefined && typeof arg.folded.value === 'string') {
      // a pattern: SQLite's LIKE ignores case, so SQLite uses GLOB; PostgreSQL's LIKE escapes with \
      const s = arg.folded.value;
      const esc = this.#pg ? s.replace(/[\\%_]/g, '\\$&') : s.replace(/[*?[]/g, '[$&]');
      const any = this.#pg ? '%' : '*';
      const pattern = fn === 'startsWith' ? esc + any : fn === 'endsWith' ? any + esc : any + esc + any;
      return join(['(', target, this.#pg ? ' LIKE CAST(? AS TEXT))' : ' GLOB ?)'], 'bool', [pattern]);
    }
    if (fn === 'contains')
      return join(['(', this.#pg ? 'STRPOS(' : 'INSTR(', target, ', ', arg, ') > 0)'], 'bool');
    if (fn === 'startsWith')
      return join(['(SUBSTR(', target, ', 1, LENGTH(', arg, ')) = ', arg, ')'], 'bool');
    return join(
      [
        '(LENGTH(',
        target,
        ') >= LENGTH(',
        arg,
        ') AND SUBSTR(',
        target,
        ', LENGTH(',
        target,
        ') - LENGTH(',
        arg,
        ') + 1) = ',
        arg,
        ')',
      ],
      'bool',
    );
  }
}

function isNumber(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

/** Concatenates SQL text and fragments, keeping parameters in placeholder order. */
function join(parts: readonly (string | Frag)[], type: SqlType, extra: readonly unknown[] = []): Frag {
  let sql = '';
  const params: unknown[] = [];
  for (const p of parts) {
    if (typeof p === 'string') sql += p;
    else {
      sql += p.sql;
      params.push(...p.params);
    }
  }
  params.push(...extra);
  return { sql, params, type };
}
