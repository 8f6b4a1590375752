import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { type DiagnosticBag, type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { type Constant, type Entity, type Expr, type StateMachine } from '@ninefold/model';
import {
  AGGREGATE_FUNCTIONS,
  FIELD_TYPE_INFO,
  FILE_CEL_FIELDS,
  FILE_CEL_TYPE,
  celTypeOfConstant,
  childRowFields,
  childRowType,
  dateOperators,
  isShadowedName,
  recordSchema,
  userSchema,
} from '@ninefold/model';
import { LIMITS } from '../source/limits.js';
import { expandHas } from './shorthand.js';
import { sqlObstacle } from './sql-subset.js';
import { findNodes } from './ast-walk.js';
import { readTimeNotation } from './time-notation.js';

/** Where an expression is evaluated, which decides the names it may use. */
export interface ExprScope {
  /** The record's entity, whose fields are in scope; null for expressions about no record. */
  readonly entity: Entity | null;
  /** Whether `old`, the record before the change, is in scope. */
  readonly old: boolean;
  /** Whether the entity's child relations are in scope, as lists of rows (computed values only). */
  readonly children?: boolean;
}

export interface ExprRequest {
  readonly source: string;
  /** The YAML scalar holding the expression. */
  readonly span: Span;
  readonly raw: string;
  readonly scope: ExprScope;
  /** The CEL type the expression must have: `bool` for conditions, a field's type for values. */
  readonly expect: string;
  /** Whether it must translate to SQL (read permissions and list filters). */
  readonly sql: boolean;
  /** Names the place for messages: "the read permission of `manager` on `Claim`". */
  readonly what: string;
}

function scopeKey(scope: ExprScope): string {
  return `${scope.entity?.name ?? ''}|${scope.old}|${scope.children === true}`;
}

const CEL_LIMITS = { maxAstNodes: 1000, maxDepth: 48 };

/** The library's own duration type, which it does not export: `date - date` makes one. */
const Duration = (new Environment().evaluate("duration('0s')") as object).constructor as unknown as {
  fromMilliseconds(ms: number): unknown;
};
const DATE_OPERATORS = dateOperators((ms) => Duration.fromMilliseconds(ms));

/**
 * What checking an expression reads of the compile (the facet readers' `CompileContext` has it):
 * the names in scope, and where to report. Declared here so that expressions need not know the
 * compile's other parts.
 */
export interface ExpressionContext {
  readonly bag: DiagnosticBag;
  readonly constants: Readonly<Record<string, Constant>>;
  readonly entities: Readonly<Record<string, Entity>>;
  readonly states: Readonly<Record<string, StateMachine>>;
}

/** Builds and caches one CEL environment per scope of a compile. */
export class Environments {
  #base: Environment | null = null;
  readonly #byScope = new Map<string, Environment>();

  constructor(private readonly ctx: ExpressionContext) {}

  // the same condition often repeats across entities and roles: check and parse each text once per scope
  readonly #checked = new Map<string, ReturnType<Environment['check']>>();
  readonly #asts = new Map<string, ASTNode>();

  check(scope: ExprScope, source: string): ReturnType<Environment['check']> {
    const key = `${scopeKey(scope)}\u0000${source}`;
    let result = this.#checked.get(key);
    if (result === undefined) this.#checked.set(key, (result = this.get(scope).check(source)));
    return result;
  }

  ast(scope: ExprScope, source: string): ASTNode {
    const key = `${scopeKey(scope)}\u0000${source}`;
    let ast = this.#asts.get(key);
    if (ast === undefined) this.#asts.set(key, (ast = this.get(scope).parse(source).ast));
    return ast;
  }

  get(scope: ExprScope): Environment {
    const key = scopeKey(scope);
    let env = this.#byScope.get(key);
    if (env === undefined) {
      env = this.#build(scope);
      this.#byScope.set(key, env);
    }
    return env;
  }

  /** Every name the scope defines, for suggestions. */
  names(scope: ExprScope): string[] {
    const names = ['user', 'now', 'today', ...Object.keys(this.ctx.constants)];
    if (scope.entity !== null) {
      names.push('self', ...Object.keys(recordSchema(scope.entity, this.ctx.states[scope.entity.name])));
      if (scope.entity.owner !== null) names.push('own');
      if (scope.old) names.push('old');
      if (scope.children === true) names.push(...Object.keys(scope.entity.children));
    }
    return names;
  }

  #build(scope: ExprScope): Environment {
    this.#base ??= this.#buildBase();
    const env = this.#base.clone();
    const entity = scope.entity;
    if (entity === null) return env;
    const schema = recordSchema(entity, this.ctx.states[entity.name]);
    for (const [name, type] of Object.entries(schema)) {
      // a field named like an expression name is `self.name` only (NF334 for a bare use); never crash on it
      if (isShadowedName(name) || env.hasVariable(name)) continue;
      try {
        env.registerVariable(name, type);
      } catch {
        continue; // still reachable as `self.name`
      }
    }
    env.registerVariable({ name: 'self', schema });
    if (entity.owner !== null) env.registerVariable('own', 'bool');
    if (scope.old) env.registerVariable({ name: 'old', schema });
    if (scope.children === true) this.#registerChildren(env, entity);
    return env;
  }

  /** Each child relation as a list of rows of the child's fields (`lines.map(l, l.amount)`). */
  #registerChildren(env: Environment, entity: Entity): void {
    const registered = new Set<string>();
    for (const relation of Object.values(entity.children)) {
      const child = this.ctx.entities[relation.entity];
      if (child === undefined || env.hasVariable(relation.name)) continue;
      const type = childRowType(child.name);
      if (!registered.has(type)) {
        env.registerType(type, { fields: childRowFields(child, this.ctx.states[child.name]) });
        registered.add(type);
      }
      env.registerVariable(relation.name, `list<${type}>`);
    }
  }

  #buildBase(): Environment {
    const env = new Environment({ limits: CEL_LIMITS });
    env.registerType(FILE_CEL_TYPE, { fields: FILE_CEL_FIELDS });
    env.registerVariable({ name: 'user', schema: userSchema(this.ctx.entities['User']) });
    env.registerVariable('now', 'google.protobuf.Timestamp');
    env.registerVariable('today', 'string');
    for (const fn of AGGREGATE_FUNCTIONS) env.registerFunction(fn.signature, fn.handler);
    for (const op of DATE_OPERATORS) env.registerOperator(op.signature, op.handler);
    for (const [name, value] of Object.entries(this.ctx.constants)) {
      const type = celTypeOfConstant(value);
      env.registerConstant(name, type, type === 'int' ? BigInt(value as number) : value);
    }
    return env;
  }
}

/**
 * Parses and type-checks one expression in its scope. Reports every problem at its place in the
 * file and returns the checked expression, or null when it is not valid.
 */
export function checkExpression(ctx: ExpressionContext, envs: Environments, req: ExprRequest): Expr | null {
  const { bag } = ctx;
  const quote = req.raw.startsWith('"') || req.raw.startsWith("'") ? 1 : 0;
  const at = (offset: number, length = 1): Span => {
    const start = req.span.start + quote + Math.max(0, offset);
    return { start, end: Math.min(start + Math.max(1, length), Math.max(req.span.end, start + 1)) };
  };
  if (req.source.length > LIMITS.maxExpressionLength) {
    bag.report(
      'NF406',
      at(0),
      `${cap(req.what)} is ${req.source.length} characters long; at most ${LIMITS.maxExpressionLength} are allowed.`,
      'split it into several rules',
    );
    return null;
  }
  if (req.source.trim() === '') {
    bag.report(
      'NF401',
      at(0),
      `${cap(req.what)} is empty.`,
      'write a CEL expression, for example `amount > 0`',
    );
    return null;
  }
  const { source, original } = expandHas(req.source);
  let result: ReturnType<Environment['check']>;
  try {
    result = envs.check(req.scope, source);
  } catch (error) {
    // a pathological expression can exhaust the stack; it is still only a bad expression
    if (!(error instanceof RangeError)) throw error;
    bag.report('NF406', at(0), `${cap(req.what)} is too deeply nested to check.`, 'simplify it');
    return null;
  }

  if (!result.valid) {
    const error = result.error!;
    const start = original(error.range?.start ?? 0);
    const end = original(error.range?.end ?? start + 1);
    const span = at(start, end - start);
    const code = (error as { code?: string }).code ?? '';
    const summary = (error as { summary?: string }).summary ?? error.message.split('\n')[0] ?? '';
    if (code === 'limit_exceeded') {
      bag.report(
        'NF406',
        span,
        `${cap(req.what)} is too large: ${summary.toLowerCase()}.`,
        'split it into simpler rules',
      );
    } else if (error.name === 'ParseError') {
      bag.report(
        'NF401',
        span,
        `${cap(req.what)} does not parse: ${summary.toLowerCase().replace(/eof/, 'the end of the expression')}.`,
        "CEL reads like `amount > 0 && state == 'draft'`; strings are quoted",
      );
    } else if (code === 'unknown_variable') {
      const name = summary.replace(/^Unknown variable: /, '');
      bag.report(
        'NF402',
        span,
        `${cap(req.what)} uses \`${name}\`, which is not defined here.`,
        unknownNameHint(name, req, envs),
      );
    } else if (code === 'no_such_key' && selectsFromFile(error)) {
      const key = summary.replace(/^No such key: /, '');
      bag.report(
        'NF331',
        span,
        `${cap(req.what)} reads \`${key}\` of a file, which has only ${FILE_MEMBERS}.`,
        suggestion(key, Object.keys(FILE_CEL_FIELDS), 'member'),
      );
    } else if (code === 'no_such_key') {
      const key = summary.replace(/^No such key: /, '');
      const fieldNames = req.scope.entity
        ? Object.keys(recordSchema(req.scope.entity, ctx.states[req.scope.entity.name]))
        : [];
      bag.report(
        'NF402',
        span,
        `${cap(req.what)} selects \`${key}\`, which does not exist there.`,
        suggestion(key, fieldNames, 'field'),
      );
    } else {
      bag.report('NF403', span, `${cap(req.what)} does not type-check: ${summary}.`, typeHint(summary));
    }
    return null;
  }

  const type = result.type ?? 'dyn';
  if (!typeFits(type, req.expect)) {
    const code = req.expect === 'bool' ? 'NF404' : 'NF403';
    bag.report(
      code,
      at(0, req.source.length),
      `${cap(req.what)} must be ${describeType(req.expect)}, but it is ${describeType(type)}.`,
      req.expect === 'bool'
        ? 'compare it, for example `amount > 0`'
        : type === 'google.protobuf.Timestamp' && req.expect === 'string'
          ? '`now` is an instant; a date field takes `today`'
          : null,
    );
    return null;
  }

  const ast = envs.ast(req.scope, source);
  const time = readTimeNotation(ast, source, {
    entity: req.scope.entity,
    constants: ctx.constants,
    typeOf: (text) => {
      const piece = envs.check(req.scope, text);
      return piece.valid ? (piece.type ?? null) : null;
    },
    valueOf: (text) => {
      try {
        return envs.get(req.scope).evaluate(text, {});
      } catch {
        return undefined;
      }
    },
  });
  for (const problem of time.problems) {
    const start = original(problem.start);
    bag.report(
      problem.code,
      at(start, original(problem.end) - start),
      `${cap(req.what)}: ${problem.message}.`,
      problem.hint,
    );
  }
  if (time.problems.length > 0) return null;
  reportShadowedFields(bag, req, ast, (start, end) => at(original(start), original(end) - original(start)));
  if (req.sql) {
    const entity = req.scope.entity;
    const isList = (name: string) => {
      const field = entity?.fields[name];
      // stored as JSON text, which SQL does not compare
      return field !== undefined && (field.many || FIELD_TYPE_INFO[field.type].storage.encoding === 'json');
    };
    // a list of refs is a join table, which SQL queries (decision 0044)
    const isJoinList = (name: string) => {
      const field = entity?.fields[name];
      return field !== undefined && field.many && field.type === 'ref';
    };
    const fileField = (name: string) => {
      const field = entity?.fields[name];
      if (field === undefined || (field.type !== 'file' && field.type !== 'image')) return null;
      return field.many ? 'many' : 'one';
    };
    const obstacle = sqlObstacle(ast, isList, isJoinList, fileField);
    if (obstacle !== null) {
      const start = original(obstacle.node.range.start);
      bag.report(
        'NF405',
        at(start, original(obstacle.node.range.end) - start),
        `${cap(req.what)} runs as SQL, but ${obstacle.reason}.`,
        'keep queries to comparisons of fields with values, `&&`, `||`, `!`, `in` and `has()`',
      );
      return null;
    }
  }
  return { source: time.source, names: topLevelNames(ast) };
}

/**
 * NF334: a bare name that is both an expression name and a field of the record means the
 * expression name (`user` is the signed-in user); the field is `self.user`. Said once per name, and
 * not where the expression also writes `self.<name>`.
 */
function reportShadowedFields(
  bag: DiagnosticBag,
  req: ExprRequest,
  ast: ASTNode,
  at: (start: number, end: number) => Span,
): void {
  const fields = req.scope.entity?.fields;
  if (fields === undefined) return;
  // an expression that writes `self.user` as well shows that its bare `user` is meant
  const said = new Set<string>(
    findNodes(ast, (n) => n.op === '.' && n.args[0].op === 'id' && n.args[0].args === 'self').map(
      (n) => (n.args as [ASTNode, string])[1],
    ),
  );
  const bare = findNodes(
    ast,
    (n) => n.op === 'id' && isShadowedName(n.args) && Object.hasOwn(fields, n.args),
  );
  for (const node of bare) {
    const name = node.args as string;
    if (said.has(name)) continue;
    said.add(name);
    bag.report(
      'NF334',
      at(node.range.start, node.range.end),
      `In ${req.what}, \`${name}\` is the expression's own \`${name}\`: the field \`${name}\` is reached as \`self.${name}\` here.`,
      `write \`self.${name}\` for the record's field${name === 'user' ? ', and `user.id` for the signed-in user' : ''}`,
    );
  }
}

const FILE_MEMBERS = Object.keys(FILE_CEL_FIELDS)
  .map((m) => `\`${m}\``)
  .join(', ');

/** Whether a type error selects a member of a file (`receipt.mime`): the checker typed its target. */
function selectsFromFile(error: Error): boolean {
  const node = (error as { node?: { op?: string; args?: unknown } }).node;
  if (node?.op !== '.' || !Array.isArray(node.args)) return false;
  const target = node.args[0] as { checkedType?: { name?: string } } | undefined;
  return target?.checkedType?.name === FILE_CEL_TYPE;
}

function typeFits(actual: string, expected: string): boolean {
  if (actual === expected || actual === 'dyn' || expected === 'dyn') return true;
  if (expected === 'double' && actual === 'int') return true;
  return actual === 'null';
}

function describeType(type: string): string {
  switch (type) {
    case 'bool':
      return 'a boolean (true or false)';
    case 'int':
      return 'a whole number';
    case 'double':
      return 'a number';
    case 'string':
      return 'text';
    case 'google.protobuf.Timestamp':
      return 'an instant';
    case 'google.protobuf.Duration':
      return 'a duration';
    case FILE_CEL_TYPE:
      return 'a file';
    case `list<${FILE_CEL_TYPE}>`:
      return 'a list of files';
    default:
      return `of type ${type}`;
  }
}

function typeHint(summary: string): string | null {
  if (/int|double/.test(summary) && /string/.test(summary))
    return 'numbers and text cannot be compared or added; check the field types';
  if (/null/.test(summary)) return 'to test for a missing value, use `has(field)` or `!has(field)`';
  return null;
}

function unknownNameHint(name: string, req: ExprRequest, envs: Environments): string {
  if (name === 'own') {
    return req.scope.entity === null
      ? '`own` needs a record'
      : `\`own\` needs \`${req.scope.entity.name}\` to name its owner field, as in \`owner: submittedBy\``;
  }
  if (name === 'old')
    return '`old` exists only in rules that run on a change to an existing record (`on: [update]` or a transition)';
  if (name === 'self' && req.scope.entity === null) return 'there is no record here';
  return suggestion(name, envs.names(req.scope));
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The free top-level names an expression reads; macro variables (`r` in `exists(r, …)`) are not. */
export function topLevelNames(ast: ASTNode): string[] {
  const out = new Set<string>();
  const visit = (n: ASTNode, bound: ReadonlySet<string>) => {
    switch (n.op) {
      case 'id':
        if (!bound.has(n.args)) out.add(n.args);
        return;
      case 'value':
        return;
      case '.':
      case '.?':
        visit(n.args[0], bound);
        return;
      case 'call':
        for (const a of n.args[1]) visit(a, bound);
        return;
      case 'rcall': {
        const [fn, target, args] = n.args;
        visit(target, bound);
        const first = args[0];
        if (['all', 'exists', 'exists_one', 'map', 'filter'].includes(fn) && first?.op === 'id') {
          const inner = new Set(bound).add(first.args);
          for (const a of args.slice(1)) visit(a, inner);
        } else for (const a of args) visit(a, bound);
        return;
      }
      case 'list':
        for (const a of n.args) visit(a, bound);
        return;
      case 'map':
        for (const [k, v] of n.args) {
          visit(k, bound);
          visit(v, bound);
        }
        return;
      case '!_':
      case '-_':
        visit(n.args, bound);
        return;
      default:
        for (const a of n.args as ASTNode[]) visit(a, bound);
    }
  };
  visit(ast, new Set());
  return [...out].sort();
}
