/**
 * Evaluating the model's CEL expressions: one environment per model and entity, declared exactly
 * as the compiler declared it (packages/language/src/expressions/check.ts), and one compiled evaluator
 * per expression source.
 *
 * An evaluation yields `true`, `false` or an error; absent values are unbound variables, so reading
 * one is an error. What an error means is decided by the caller (decision 0003): a rule's `assert`
 * that errors is not violated; a `when`, a guard or a permission that errors does not hold.
 */
import { Environment } from '@marcbachmann/cel-js';
import {
  AGGREGATE_FUNCTIONS,
  type Entity,
  FILE_CEL_FIELDS,
  FILE_CEL_TYPE,
  type Expr,
  type Model,
  celTypeOfConstant,
  childRowFields,
  dateOperators,
  isShadowedName,
  childRowType,
  recordSchema,
  userSchema,
} from '@ninefold/model';
import { toCel } from './cel-values.js';
import { type Clock, type UserContext, type WireRecord, lookup, utcDate } from './record.js';

const CEL_LIMITS = { maxAstNodes: 1000, maxDepth: 48 };
/** Evaluators kept per model; a model's own expressions are far fewer, the rest are ad-hoc filters. */
const MAX_COMPILED = 5000;

type Evaluator = ReturnType<Environment['parse']>;

/** The library's own duration type, which it does not export: `date - date` makes one. */
const Duration = (new Environment().evaluate("duration('0s')") as object).constructor as unknown as {
  fromMilliseconds(ms: number): unknown;
};
const DATE_OPERATORS = dateOperators((ms) => Duration.fromMilliseconds(ms));

interface ModelCel {
  base: Environment | null;
  readonly byEntity: Map<string, Environment>;
  readonly compiled: Map<string, Evaluator | Error>;
  /** Each entity's record variables: an activation is built per row. */
  readonly records: Map<string, RecordVars>;
  /** The variables of `user` with their CEL types: every request's user context is converted by it. */
  userVars: readonly (readonly [string, string])[] | null;
}

/** An entity's record variables with their CEL types, and the prototype of its lazy activations. */
interface RecordVars {
  readonly schema: readonly (readonly [string, string])[];
  readonly owner: string | null;
  readonly prototype: object;
}

const cache = new WeakMap<Model, ModelCel>();

function modelCel(model: Model): ModelCel {
  let entry = cache.get(model);
  if (entry === undefined) {
    entry = { base: null, byEntity: new Map(), compiled: new Map(), records: new Map(), userVars: null };
    cache.set(model, entry);
  }
  return entry;
}

function baseEnvironment(model: Model, cel: ModelCel): Environment {
  if (cel.base !== null) return cel.base;
  const env = new Environment({ limits: CEL_LIMITS });
  env.registerType(FILE_CEL_TYPE, { fields: FILE_CEL_FIELDS });
  env.registerVariable({ name: 'user', schema: userSchema(model.entities['User']) });
  env.registerVariable('now', 'google.protobuf.Timestamp');
  env.registerVariable('today', 'string');
  for (const fn of AGGREGATE_FUNCTIONS) env.registerFunction(fn.signature, fn.handler);
  for (const op of DATE_OPERATORS) env.registerOperator(op.signature, op.handler);
  for (const [name, value] of Object.entries(model.constants)) {
    const type = celTypeOfConstant(value);
    env.registerConstant(name, type, type === 'int' ? BigInt(value as number) : value);
  }
  cel.base = env;
  return env;
}

/**
 * The CEL environment of an entity's expressions (or of expressions about no record when `entity`
 * is null, like defaults). `old` is always declared: the compiler only lets the expressions that
 * may use it do so.
 *
 * @example environment(model, 'Claim').evaluate('amount > 0', activation(model, 'Claim', claim, ctx))
 */
export function environment(model: Model, entity: string | null): Environment {
  const cel = modelCel(model);
  const base = baseEnvironment(model, cel);
  if (entity === null) return base;
  let env = cel.byEntity.get(entity);
  if (env !== undefined) return env;
  const def = lookup(model.entities, entity);
  if (def === undefined) throw new Error(`the model has no entity ${entity}`);
  env = base.clone();
  const schema = recordSchema(def, lookup(model.states, entity));
  for (const [name, type] of Object.entries(schema)) {
    // as the compiler does: a field named like something expressions or CEL define is `self.name` only
    if (isShadowedName(name) || env.hasVariable(name)) continue;
    try {
      env.registerVariable(name, type);
    } catch {
      continue;
    }
  }
  env.registerVariable({ name: 'self', schema });
  if (def.owner !== null) env.registerVariable('own', 'bool');
  env.registerVariable({ name: 'old', schema });
  // the child relations, read by computed values only (the compiler keeps them out of the rest)
  const rowTypes = new Set<string>();
  for (const relation of Object.values(def.children)) {
    const child = lookup(model.entities, relation.entity);
    if (child === undefined || env.hasVariable(relation.name)) continue;
    const type = childRowType(child.name);
    if (!rowTypes.has(type)) {
      env.registerType(type, { fields: childRowFields(child, lookup(model.states, child.name)) });
      rowTypes.add(type);
    }
    env.registerVariable(relation.name, `list<${type}>`);
  }
  cel.byEntity.set(entity, env);
  return env;
}

/** The compiled evaluator of a source in an entity's environment, or the error that parsing raised. */
function compiled(model: Model, entity: string | null, source: string): Evaluator | Error {
  const cel = modelCel(model);
  const key = `${entity ?? ''}\u0000${source}`;
  let evaluator = cel.compiled.get(key);
  if (evaluator === undefined) {
    try {
      evaluator = environment(model, entity).parse(source);
    } catch (error) {
      evaluator = error instanceof Error ? error : new Error(String(error));
    }
    if (cel.compiled.size >= MAX_COMPILED) cel.compiled.clear();
    cel.compiled.set(key, evaluator);
  }
  return evaluator;
}

/** What is known while an expression runs, besides the record. */
export interface EvalContext extends Clock {
  /** Null for a guest: every `user.*` then errors, so conditions about the user do not hold. */
  readonly user: UserContext | null;
  /** The record before the change, for update rules. */
  readonly old?: WireRecord | null;
}

/**
 * The variables of an expression about `record`: each present field by name and under `self`,
 * `own`, `old`, `user`, `now` and `today`. Absent and null fields are not bound.
 *
 * @example activation(model, 'Claim', { amount: '12.50' }, { user, now }) // { amount: 12.5, self: { amount: 12.5 }, own: false, … }
 */
export function activation(
  model: Model,
  entity: string | null,
  record: WireRecord | null,
  ctx: EvalContext,
): Record<string, unknown> {
  const vars = bindContext({}, model, ctx);
  const def = entity === null ? undefined : recordVars(model, entity);
  if (def === undefined) return vars;
  const self = celRecord(def.schema, record ?? {});
  for (const [name, value] of Object.entries(self)) if (!isShadowedName(name)) vars[name] = value;
  vars['self'] = self;
  bindOwnAndOld(vars, def, record, ctx);
  return vars;
}

/**
 * The same variables as `activation`, each field converted to CEL only when an expression reads it
 * (a getter of the entity's prototype) and `self` built on its first read. A permission like `own`
 * then costs no conversion of the record's other fields: what a list pays per row (bench/README.md,
 * `bench:server`). The record must not change while the activation is in use.
 *
 * Evaluation sees exactly what it sees with `activation`; only the object's shape differs (its
 * fields are not own properties), so use `activation` where the variables themselves are inspected.
 *
 * @example holds(model, 'Claim', 'own', lazyActivation(model, 'Claim', claim, { user, now })) // true for the owner
 */
export function lazyActivation(
  model: Model,
  entity: string | null,
  record: WireRecord | null,
  ctx: EvalContext,
): Record<string, unknown> {
  const def = entity === null ? undefined : recordVars(model, entity);
  if (def === undefined) return bindContext({}, model, ctx);
  const vars = Object.create(def.prototype) as Record<string | symbol, unknown>;
  vars[RECORD] = record ?? {};
  vars[SELF] = undefined;
  bindContext(vars, model, ctx);
  bindOwnAndOld(vars, def, record, ctx);
  return vars as Record<string, unknown>;
}

/** Binds `now`, `today` and, for a signed-in user, `user`. */
function bindContext(vars: Record<string, unknown>, model: Model, ctx: EvalContext): Record<string, unknown> {
  vars['now'] = ctx.now;
  vars['today'] = ctx.today ?? utcDate(ctx.now);
  if (ctx.user !== null) vars['user'] = celUser(model, ctx.user);
  return vars;
}

function bindOwnAndOld(
  vars: Record<string, unknown>,
  def: RecordVars,
  record: WireRecord | null,
  ctx: EvalContext,
): void {
  if (def.owner !== null) {
    const owner = record?.[def.owner];
    vars['own'] = ctx.user !== null && typeof owner === 'string' && owner === ctx.user.id;
  }
  if (ctx.old !== undefined && ctx.old !== null) vars['old'] = celRecord(def.schema, ctx.old);
}

/** Where a lazy activation keeps its record, and its `self` once built: never a variable's name. */
const RECORD = Symbol('record');
const SELF = Symbol('self');

interface LazyVars {
  readonly [RECORD]: WireRecord;
  [SELF]: Record<string, unknown> | undefined;
}

/** The record variables of an entity, built once per model; undefined for an unknown entity. */
function recordVars(model: Model, entity: string): RecordVars | undefined {
  const cel = modelCel(model);
  let vars = cel.records.get(entity);
  if (vars !== undefined) return vars;
  const def = lookup(model.entities, entity);
  if (def === undefined) return undefined;
  const schema = Object.entries(recordSchema(def, lookup(model.states, entity)));
  vars = { schema, owner: def.owner, prototype: lazyPrototype(schema) };
  cel.records.set(entity, vars);
  return vars;
}

/** A getter per record variable, converting the field on each read, and `self`, built once. */
function lazyPrototype(schema: readonly (readonly [string, string])[]): object {
  const prototype = {};
  for (const [name, type] of schema) {
    // `user`, `now`… are the context's, bound on the activation itself; the field is `self.user`
    if (isShadowedName(name)) continue;
    Object.defineProperty(prototype, name, {
      get(this: LazyVars) {
        return toCel(type, this[RECORD][name]);
      },
    });
  }
  Object.defineProperty(prototype, 'self', {
    get(this: LazyVars) {
      return (this[SELF] ??= celRecord(schema, this[RECORD]));
    },
  });
  return prototype;
}

function celRecord(
  schema: readonly (readonly [string, string])[],
  record: WireRecord,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, type] of schema) {
    const value = toCel(type, record[name]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The CEL form of each user context: a request's user is the same object for every row it reads. */
const celUsers = new WeakMap<UserContext, { readonly model: Model; readonly cel: Record<string, unknown> }>();

function celUser(model: Model, user: UserContext): Record<string, unknown> {
  const cached = celUsers.get(user);
  if (cached !== undefined && cached.model === model) return cached.cel;
  const cel = celRecord(userVars(model), user);
  celUsers.set(user, { model, cel });
  return cel;
}

/** The user's variables with their CEL types, built once per model (each request brings a new user context). */
function userVars(model: Model): readonly (readonly [string, string])[] {
  const cel = modelCel(model);
  return (cel.userVars ??= Object.entries(userSchema(model.entities['User'])));
}

/** The outcome of an evaluation: a value, or the error that stopped it. */
export type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * Evaluates an expression. Never throws: CEL errors (unbound variables, division by zero,
 * overflow) and any other exception (a RangeError from deep recursion, say) become `{ ok: false }`.
 *
 * @example evaluate(model, 'Claim', 'amount > 10', vars) // { ok: true, value: true }
 */
export function evaluate(
  model: Model,
  entity: string | null,
  expr: Expr | string,
  vars: Record<string, unknown>,
): Outcome {
  const evaluator = compiled(model, entity, typeof expr === 'string' ? expr : expr.source);
  if (evaluator instanceof Error) return { ok: false, error: evaluator.message };
  try {
    const value: unknown = evaluator(vars);
    // an async function registered by someone else would return a promise: not a value here
    if (value instanceof Promise) return { ok: false, error: 'asynchronous result' };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Whether a condition holds: true only when it evaluates to `true`. An error does not hold
 * (deny by default), as a NULL comparison excludes a row in SQL.
 *
 * @example holds(model, 'Claim', "state == 'draft'", vars) // false when state is absent
 */
export function holds(
  model: Model,
  entity: string | null,
  expr: Expr | string,
  vars: Record<string, unknown>,
): boolean {
  const outcome = evaluate(model, entity, expr, vars);
  return outcome.ok && outcome.value === true;
}

/**
 * Whether an assertion is violated: only when it evaluates to `false`. An assertion that errors,
 * because a value it reads is absent, is not violated: requiredness is the field's business.
 *
 * @example violated(model, 'Claim', 'fee <= MAX_FEE', vars) // false when fee is absent
 */
export function violated(
  model: Model,
  entity: string | null,
  expr: Expr | string,
  vars: Record<string, unknown>,
): boolean {
  const outcome = evaluate(model, entity, expr, vars);
  return outcome.ok && outcome.value === false;
}

/** The entity definition, or an error naming the missing entity. */
export function entityOf(model: Model, entity: string): Entity {
  const def = lookup(model.entities, entity);
  if (def === undefined) throw new Error(`the model has no entity ${entity}`);
  return def;
}
