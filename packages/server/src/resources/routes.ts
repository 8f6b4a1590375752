/**
 * The REST resources of a model: for every entity, `/api/<resource>` (list, create),
 * `/api/<resource>/<id>` (get, update, delete), its transitions and its history (DESIGN.md, "HTTP
 * API conventions"). Every rule is decided by the engine; reads are filtered in SQL; every write
 * and its history entry share one transaction.
 */
import {
  type UserContext,
  type WireRecord,
  accessFor,
  accessHolds,
  applyDefaults,
  applyTransition,
  availableTransitions,
  can,
  checkWrite,
  grantsOf,
  lazyActivation,
  maskRecord,
  queryableFields,
  readableFields,
  toSqlFilter,
  utcDate,
  validateRecord,
} from '@ninefold/engine';
import {
  ACTIONS_KEY,
  type Access,
  type Entity,
  type HistoryEntry,
  IDEMPOTENT_REPLAYED_HEADER,
  IF_MATCH_HEADER,
  type Model,
  type Value,
  SYSTEM_FIELDS,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import { Readable } from 'node:stream';
import { newId } from '../ids.js';
import { recordHistory } from '../audit/history.js';
import { READ_BY_ID, requireUser } from '../auth/request-auth.js';
import { normalizeEmail } from '../auth/users.js';
import { isUniqueViolation } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import {
  type IdempotencyKey,
  type KeptOutcome,
  idempotencyKey,
  isKeyTaken,
  keepOutcome,
  keptOutcome,
} from '../http/idempotency.js';
import { apiPath } from '../http/paths.js';
import { TABLES } from '../schema/names.js';
import { writeProblem } from './issues.js';
import { CompiledSql } from './compiled-sql.js';
import {
  type SortKey,
  cursorCondition,
  encodeCursor,
  orderBy,
  parseListQuery,
  sortSignature,
} from './list-query.js';
import {
  type Db,
  type EntityTable,
  changeSet,
  changedFields,
  decodeRow,
  encodeFields,
  entityTable,
  recordSerializer,
  userContext,
} from './records.js';
import { engineFilter } from './sql.js';

export interface ResourceContext {
  readonly model: Model;
  readonly database: Database;
  readonly now: () => Date;
}

/** What Fastify says of the JSON it writes itself: a record written by its serializer says the same. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The path of an entity's collection: the model's base path and the entity's resource. */
export function resourcePath(model: Model, entity: Entity): string {
  return apiPath(model, entity.resource);
}

/**
 * Registers the routes of every entity.
 *
 * @example registerResources(app, { model, database, now: () => new Date() });
 */
export function registerResources(app: FastifyInstance, context: ResourceContext): void {
  for (const entity of Object.values(context.model.entities)) {
    const resource = new Resource(context, entityTable(context.model, entity));
    const path = resourcePath(context.model, entity);
    app.get(path, (request, reply) => resource.list(request, reply));
    app.post(path, (request, reply) => resource.create(request, reply));
    // the session lookup reads the record too: a GET of one record costs one statement
    app.get(`${path}/:id`, { config: { [READ_BY_ID]: resource.table } }, (request, reply) =>
      resource.get(request, reply),
    );
    app.patch(`${path}/:id`, (request, reply) => resource.update(request, reply));
    app.delete(`${path}/:id`, (request, reply) => resource.remove(request, reply));
    app.get(`${path}/:id/history`, (request) => resource.history(request));
    const machine = context.model.states[entity.name];
    for (const name of Object.keys(machine?.transitions ?? {})) {
      app.post(`${path}/:id/transitions/${name}`, (request, reply) =>
        resource.transition(request, reply, name),
      );
    }
  }
}

/** A record's CEL activation (`lazyActivation`). */
type Vars = Record<string, unknown>;

interface Caller {
  readonly user: UserContext;
  readonly now: Date;
  /** The UTC date of `now`, for the CEL `today` of every record the request shows. */
  readonly today: string;
  /** The user's read access to the entity, decided once for every record the request shows. */
  readonly read: Access;
  /** No role of the user that reads the entity hides a field: a readable record is shown whole. */
  readonly unmasked: boolean;
}

class Resource {
  readonly #model: Model;
  readonly #database: Database;
  readonly #entity: string;
  readonly #path: string;
  /** The SQL of a read by id, compiled once: only the id changes between requests. */
  #byIdSql: string | null = null;
  /** The SELECT of each shape of list page, compiled once (`#page`). */
  readonly #pages = new CompiledSql();
  /** The INSERT of a created record, compiled once. */
  readonly #inserts = new CompiledSql(1);
  /**
   * A record as `#present` answers it (its columns in their order, some left out by a mask, then
   * `_actions`) written as JSON: what `JSON.stringify` writes, without its walk of the keys.
   */
  readonly #serialize: (record: Readonly<Record<string, Value>>) => string;
  /** `#readAccess` per user context: the roles decide it, and a kept session's context is frozen. */
  readonly #readAccessOf = new WeakMap<UserContext, { readonly read: Access; readonly unmasked: boolean }>();

  constructor(
    private readonly context: ResourceContext,
    private readonly info: EntityTable,
  ) {
    this.#model = context.model;
    this.#database = context.database;
    this.#entity = info.entity.name;
    this.#path = resourcePath(context.model, info.entity);
    this.#serialize = recordSerializer([...info.columns, ACTIONS_KEY]);
  }

  /** The entity's table, for the routes that ask the session lookup to read one of its records. */
  get table(): EntityTable {
    return this.info;
  }

  get #db(): Db {
    return this.#database.db;
  }

  async #caller(request: FastifyRequest): Promise<Caller> {
    const summary = requireUser(request);
    // the session lookup decoded the User record already; the query is the fallback
    const user = request.auth.context ?? (await userContext(this.#model, this.#db, summary));
    return this.#callerOf(user);
  }

  #callerOf(user: UserContext): Caller {
    const { read, unmasked } = this.#readAccess(user);
    const now = this.context.now();
    return { user, now, today: utcDate(now), read, unmasked };
  }

  /**
   * The user's read access to the entity, decided by their roles alone: once per user context, which
   * a session kept between requests shares (`SessionCache`).
   */
  #readAccess(user: UserContext): { readonly read: Access; readonly unmasked: boolean } {
    let decided = this.#readAccessOf.get(user);
    if (decided === undefined) {
      const unmasked = grantsOf(this.#model, user, this.#entity).every(
        (grant) => grant.read === false || grant.readFields === null,
      );
      decided = { read: accessFor(this.#model, user, 'read', this.#entity), unmasked };
      this.#readAccessOf.set(user, decided);
    }
    return decided;
  }

  // ---------------------------------------------------------------------------------------------
  // Reads

  async list(request: FastifyRequest, reply: FastifyReply) {
    const caller = await this.#caller(request);
    const access = caller.read;
    if (access === false) throw new ApiError('E_FORBIDDEN');
    const dialect = this.#database.dialect;
    const query = parseListQuery(
      this.#model,
      this.info,
      request.query as Record<string, unknown>,
      caller.user,
      dialect,
    );
    const permission = toSqlFilter(this.#model, this.#entity, access, {
      user: caller.user,
      now: caller.now,
      dialect,
    });
    const conditions = [sql`(${engineFilter(permission)})`, ...query.conditions];
    const fixed = query.screen?.where ?? null;
    if (fixed !== null) {
      // a screen's condition is a view, never a grant: it only narrows what the permission allows
      const view = { any: [fixed] };
      const filter = toSqlFilter(this.#model, this.#entity, view, {
        user: caller.user,
        now: caller.now,
        dialect,
      });
      conditions.push(sql`(${engineFilter(filter)})`);
    }
    if (query.format === 'csv') return this.#exportCsv(reply, caller, conditions, query.sort);

    // a page of the permission alone (no filter or screen; after a cursor or not) has one text per
    // permission filter, sort and cursor shape
    const after = query.after;
    const shape =
      query.conditions.length === 0 && fixed === null
        ? {
            key: `${permission.sql}\u0000${sortSignature(query.sort)}\u0000${after?.shape ?? ''}`,
            parameters: [...permission.params, ...(after?.parameters ?? [])],
          }
        : null;
    const { shown, more } = await this.#page(
      conditions,
      after?.condition ?? null,
      query.sort,
      query.limit,
      shape,
    );
    const last = shown.at(-1);
    const body: { data: Record<string, Value>[]; nextCursor: string | null; total?: number } = {
      data: shown.map((record) => this.#present(record, caller)),
      nextCursor: more && last !== undefined ? encodeCursor(query.sort, last) : null,
    };
    if (query.total) {
      const where = sql.join(conditions, sql` and `);
      const counted = await sql<{
        n: unknown;
      }>`select count(*) as n from ${sql.table(this.info.table)} where ${where}`.execute(this.#db);
      body.total = Number(counted.rows[0]?.n ?? 0);
    }
    return body;
  }

  /**
   * One keyset page: the rows after `after` in `sort` order, and whether more follow. With a
   * `shape` (a key naming the conditions' text and the sort, and the conditions' parameters in
   * order), the SELECT is compiled once per shape and run with this request's values.
   */
  async #page(
    conditions: readonly RawBuilder<unknown>[],
    after: RawBuilder<unknown> | null,
    sort: readonly SortKey[],
    limit: number,
    shape: { readonly key: string; readonly parameters: readonly unknown[] } | null = null,
  ): Promise<{ shown: Record<string, Value>[]; more: boolean }> {
    const compile = () => {
      const page = sql.join(after === null ? conditions : [...conditions, after], sql` and `);
      const table = sql.table(this.info.table);
      const columns = sql.join(this.info.columns.map((c) => sql.ref(c)));
      return sql`select ${columns} from ${table} where ${page}
        order by ${orderBy(sort)} limit ${limit + 1}`.compile(this.#db);
    };
    const query =
      shape === null ? compile() : this.#pages.query(shape.key, [...shape.parameters, limit + 1], compile);
    const rows = await this.#database.selectValues(query.sql, query.parameters);
    const records = rows.map((row) => decodeRow(this.info, row));
    const more = records.length > limit;
    return { shown: more ? records.slice(0, limit) : records, more };
  }

  /**
   * Every row of the list as CSV, read page by page along the keyset so that memory stays flat
   * whatever the count. Columns are the fields the user may read; a value a row's mask hides is empty.
   */
  #exportCsv(
    reply: FastifyReply,
    caller: Caller,
    conditions: readonly RawBuilder<unknown>[],
    sort: readonly SortKey[],
  ): FastifyReply {
    const readable = queryableFields(this.#model, caller.user, this.#entity);
    const fields = Object.values(this.info.entity.fields).filter(
      (f) => readable === null || readable.has(f.name),
    );
    const hasState = this.#model.states[this.#entity] !== undefined;
    const columns = [
      { name: 'id', label: 'Id' },
      ...(hasState ? [{ name: 'state', label: 'State' }] : []),
      ...fields.map((f) => ({ name: f.name, label: f.label })),
      { name: 'createdAt', label: 'Created' },
      { name: 'updatedAt', label: 'Updated' },
    ];
    const pageSize = this.#model.limits.maxPageSize;
    const page = (after: RawBuilder<unknown> | null) => this.#page(conditions, after, sort, pageSize);
    const present = (record: Record<string, Value>) => this.#present(record, caller);
    const next = (last: Record<string, Value>) =>
      cursorCondition(this.info, sort, encodeCursor(sort, last), this.#database.dialect).condition;
    async function* lines(): AsyncGenerator<string> {
      yield `\uFEFF${columns.map((c) => csvCell(c.label)).join(',')}\r\n`;
      let after: RawBuilder<unknown> | null = null;
      for (;;) {
        const { shown, more } = await page(after);
        let chunk = '';
        for (const record of shown) {
          const row = present(record);
          chunk += `${columns.map((c) => csvCell(row[c.name])).join(',')}\r\n`;
        }
        if (chunk !== '') yield chunk;
        const last = shown.at(-1);
        if (!more || last === undefined) return;
        after = next(last);
      }
    }
    const date = caller.today;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${this.info.entity.resource}-${date}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines()));
  }

  /**
   * One record. When the session lookup has read the record with the session (a kept session, or
   * the lookup's own statement) the answer is decided at once, without a promise.
   */
  get(request: FastifyRequest, reply: FastifyReply): string | Promise<string> {
    requireUser(request);
    const user = request.auth.context;
    const id = (request.params as { id?: unknown }).id;
    const record = user == null || typeof id !== 'string' ? undefined : this.#readWithSession(request, id);
    if (user == null || record === undefined) return this.#getLater(request, reply);
    const caller = this.#callerOf(user);
    return this.#shown(reply, caller, this.#decideRead(record, caller));
  }

  async #getLater(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const caller = await this.#caller(request);
    return this.#shown(reply, caller, await this.#read(request, caller));
  }

  /** The record as its reader may see it, written as JSON by the entity's own serializer. */
  #shown(
    reply: FastifyReply,
    caller: Caller,
    { record, vars }: { record: Record<string, Value>; vars: Vars },
  ): string {
    const shown = this.#present(record, caller, vars, true);
    reply.header('etag', etag(record)).header('content-type', JSON_CONTENT_TYPE);
    return this.#serialize(shown);
  }

  /**
   * The record's history, oldest first, each change masked as the record is for its reader. A
   * deleted record's history stays readable by those who could read the record when it was
   * deleted: the record is rebuilt from its own history (`recordAsDeleted`) and the same read rules
   * decide on it.
   */
  async history(request: FastifyRequest) {
    const caller = await this.#caller(request);
    const id = (request.params as { id?: unknown }).id;
    const notFound = () => new ApiError('E_NOT_FOUND', { entity: this.info.entity.label });
    if (typeof id !== 'string' || id === '') throw notFound();
    const rows = (await this.#db
      .selectFrom(TABLES.history)
      .selectAll()
      .where('entity', '=', this.#entity)
      .where('record_id', '=', id)
      .orderBy('at')
      .orderBy('id')
      .execute()) as Record<string, unknown>[];
    const entries = rows.map(historyEntry);
    const record = (await this.#readById(id)) ?? recordAsDeleted(this.info, id, entries);
    if (record === null || !this.#mayRead(record, caller, this.#activation(record, caller))) throw notFound();
    const fields = readableFields(this.#model, caller.user, this.#entity, record, { now: caller.now });
    const visible = fields === null ? null : new Set<string>([...SYSTEM_FIELDS, ...fields]);
    const data = entries.map((entry) => {
      const masked: Record<string, { from: Value; to: Value }> = {};
      for (const [name, change] of Object.entries(entry.changes)) {
        if (visible === null || visible.has(name)) masked[name] = change;
      }
      return { ...entry, changes: masked };
    });
    return { data };
  }

  // ---------------------------------------------------------------------------------------------
  // Writes

  async create(request: FastifyRequest, reply: FastifyReply) {
    const caller = await this.#caller(request);
    return this.#once(request, reply, caller, (key) => this.#create(request, reply, caller, key));
  }

  async #create(request: FastifyRequest, reply: FastifyReply, caller: Caller, key: IdempotencyKey | null) {
    const { user, now } = caller;
    const input = this.#normalized(bodyObject(request.body));
    if (accessFor(this.#model, user, 'create', this.#entity) === false) throw new ApiError('E_FORBIDDEN');
    const writeErrors = checkWrite(this.#model, user, this.#entity, input, { operation: 'create', now });
    if (writeErrors.length > 0) throw writeProblem(this.#model, writeErrors);
    const filled = applyDefaults(this.#model, this.#entity, input, { user, now });
    const checked = validateRecord(this.#model, this.#entity, filled, { operation: 'create', user, now });
    if (!checked.ok) throw writeProblem(this.#model, checked.errors);
    const at = now.toISOString();
    const record: Record<string, Value> = {
      ...checked.record,
      id: newId(),
      createdAt: at,
      updatedAt: at,
      createdBy: user.id,
      version: 1,
    };
    if (this.info.hasState) record['state'] = this.#model.states[this.#entity]?.initial ?? null;
    else delete record['state'];
    if (!can(this.#model, user, 'create', this.#entity, record, { now })) throw new ApiError('E_FORBIDDEN');
    await this.#checkRefs(input, caller);

    const fields = this.info.columns.filter((c) => !isSystem(c) && record[c] !== null);
    const row = encodeFields(this.info, record, this.info.columns, this.#database.dialect);
    await this.#write(async (tx) => {
      // every column bound in the table's order: one text for every create
      const insert = this.#inserts.query(
        'insert',
        this.info.columns.map((c) => row[c]),
        () => tx.insertInto(this.info.table).values(row).compile(),
      );
      await tx.executeQuery(CompiledQuery.raw(insert.sql, [...insert.parameters]));
      await recordHistory(tx, {
        entity: this.#entity,
        recordId: record['id'] as string,
        at: now,
        by: user.id,
        action: 'create',
        ...(this.info.hasState ? { toState: String(record['state']) } : {}),
        changes: changeSet(fields, null, record),
      });
      if (key !== null) await keepOutcome(tx, key, { status: 201, recordId: String(record['id']) }, now);
    });
    reply
      .code(201)
      .header('etag', etag(record))
      .header('location', `${this.#path}/${String(record['id'])}`);
    return this.#present(inColumns(this.info, record), caller);
  }

  async update(request: FastifyRequest, reply: FastifyReply) {
    const caller = await this.#caller(request);
    return this.#once(request, reply, caller, (key) => this.#update(request, reply, caller, key));
  }

  async #update(request: FastifyRequest, reply: FastifyReply, caller: Caller, key: IdempotencyKey | null) {
    const { user, now } = caller;
    const old = await this.#readable(request, caller);
    const version = ifMatch(request, true, old);
    const input = this.#normalized(bodyObject(request.body));
    if (!can(this.#model, user, 'update', this.#entity, old, { now })) throw new ApiError('E_FORBIDDEN');
    const writeErrors = checkWrite(this.#model, user, this.#entity, input, {
      operation: 'update',
      record: old,
      now,
    });
    if (writeErrors.length > 0) throw writeProblem(this.#model, writeErrors);
    const checked = validateRecord(this.#model, this.#entity, input, {
      operation: 'update',
      old,
      user,
      now,
    });
    if (!checked.ok) throw writeProblem(this.#model, checked.errors);
    const next: Record<string, Value> = { ...old, ...withoutSystem(checked.record) };
    if (!can(this.#model, user, 'update', this.#entity, next, { old, now }))
      throw new ApiError('E_FORBIDDEN');
    await this.#checkRefs(input, caller);

    const changed = changedFields(this.info, old, next);
    if (changed.length === 0) {
      reply.header('etag', etag(old));
      return this.#present(old, caller);
    }
    const saved: Record<string, Value> = { ...next, updatedAt: now.toISOString(), version: version + 1 };
    await this.#write(async (tx) => {
      await this.#updateRow(tx, saved, [...changed, 'updatedAt', 'version'], version);
      await recordHistory(tx, {
        entity: this.#entity,
        recordId: String(old['id']),
        at: now,
        by: user.id,
        action: 'update',
        changes: changeSet(changed, old, saved),
      });
      if (key !== null) await keepOutcome(tx, key, { status: 200, recordId: String(old['id']) }, now);
    });
    reply.header('etag', etag(saved));
    return this.#present(inColumns(this.info, saved), caller);
  }

  async remove(request: FastifyRequest, reply: FastifyReply) {
    const caller = await this.#caller(request);
    return this.#once(request, reply, caller, (key) => this.#remove(request, reply, caller, key));
  }

  async #remove(request: FastifyRequest, reply: FastifyReply, caller: Caller, key: IdempotencyKey | null) {
    const { user, now } = caller;
    const old = await this.#readable(request, caller);
    const version = ifMatch(request, false, old);
    if (!can(this.#model, user, 'delete', this.#entity, old, { now })) throw new ApiError('E_FORBIDDEN');
    const fields = this.info.columns.filter((c) => !isSystem(c) && old[c] !== null);
    await this.#write(async (tx) => {
      const result = await tx
        .deleteFrom(this.info.table)
        .where('id', '=', String(old['id']))
        .where('version', '=', version)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) !== 1) throw new ApiError('E_CONFLICT');
      await recordHistory(tx, {
        entity: this.#entity,
        recordId: String(old['id']),
        at: now,
        by: user.id,
        action: 'delete',
        changes: changeSet(fields, old, null),
      });
      if (key !== null) await keepOutcome(tx, key, { status: 204, recordId: String(old['id']) }, now);
    });
    return reply.code(204).send();
  }

  async transition(request: FastifyRequest, reply: FastifyReply, name: string) {
    const caller = await this.#caller(request);
    return this.#once(request, reply, caller, (key) => this.#transition(request, reply, caller, name, key));
  }

  async #transition(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    name: string,
    key: IdempotencyKey | null,
  ) {
    const { user, now } = caller;
    const old = await this.#readable(request, caller);
    const version = ifMatch(request, true, old);
    const input = request.body === undefined ? {} : bodyObject(request.body);
    const result = applyTransition(this.#model, user, this.#entity, old, name, input, { now });
    if (!result.ok) throw writeProblem(this.#model, result.errors);
    await this.#checkRefs(input, caller);
    const next: Record<string, Value> = { ...old, ...withoutSystem(result.record) };
    next['state'] = result.record['state'] ?? null;
    const changed = changedFields(this.info, old, next);
    const saved: Record<string, Value> = { ...next, updatedAt: now.toISOString(), version: version + 1 };
    await this.#write(async (tx) => {
      await this.#updateRow(tx, saved, [...changed, 'state', 'updatedAt', 'version'], version);
      await recordHistory(tx, {
        entity: this.#entity,
        recordId: String(old['id']),
        at: now,
        by: user.id,
        action: 'transition',
        transition: name,
        fromState: String(old['state']),
        toState: String(saved['state']),
        changes: changeSet(changed, old, saved),
      });
      if (key !== null) await keepOutcome(tx, key, { status: 200, recordId: String(old['id']) }, now);
    });
    reply.header('etag', etag(saved));
    return this.#present(inColumns(this.info, saved), caller);
  }

  // ---------------------------------------------------------------------------------------------
  // Idempotency-Key

  /**
   * Runs a write once per `Idempotency-Key` (http/idempotency.ts): a key already taken answers what
   * its first write did; a new one is taken in the write's transaction (`keepOutcome`). Of two
   * requests racing with one key, the second's transaction fails on the key and answers the first's.
   */
  async #once(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    write: (key: IdempotencyKey | null) => Promise<unknown>,
  ): Promise<unknown> {
    const key = idempotencyKey(request, caller.user.id);
    if (key === null) return write(null);
    const kept = await keptOutcome(this.#db, key, caller.now);
    if (kept !== null) return this.#replay(reply, caller, kept);
    try {
      return await write(key);
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      const first = await keptOutcome(this.#db, key, caller.now);
      if (first === null) throw error.cause;
      return this.#replay(reply, caller, first);
    }
  }

  /**
   * The answer to a write sent again: the first write's status, with its record as it is now (read
   * as any read is: E_NOT_FOUND when it is gone or no longer the user's to see).
   */
  async #replay(reply: FastifyReply, caller: Caller, kept: KeptOutcome): Promise<unknown> {
    reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (kept.status === 204) return reply.code(204).send();
    const record = kept.recordId === null ? null : await this.#readById(kept.recordId);
    const vars = record === null ? null : this.#activation(record, caller);
    if (record === null || vars === null || !this.#mayRead(record, caller, vars)) {
      throw new ApiError('E_NOT_FOUND', { entity: this.info.entity.label });
    }
    reply.code(kept.status).header('etag', etag(record));
    if (kept.status === 201) reply.header('location', `${this.#path}/${String(record['id'])}`);
    return this.#present(record, caller, vars, true);
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /** The record of the `:id` parameter, or E_NOT_FOUND when it is missing or the user may not read it. */
  async #readable(request: FastifyRequest, caller: Caller): Promise<Record<string, Value>> {
    return (await this.#read(request, caller)).record;
  }

  /** `#readable`, with the record's activation that decided it, for `#present` to reuse. */
  async #read(
    request: FastifyRequest,
    caller: Caller,
  ): Promise<{ record: Record<string, Value>; vars: Vars }> {
    const id = (request.params as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '') throw this.#notFound();
    const record = this.#readWithSession(request, id) ?? (await this.#readById(id));
    return this.#decideRead(record, caller);
  }

  /** A record found by id (null: none) with its activation, or E_NOT_FOUND when the caller may not read it. */
  #decideRead(
    record: Record<string, Value> | null,
    caller: Caller,
  ): { record: Record<string, Value>; vars: Vars } {
    if (record === null) throw this.#notFound();
    const vars = this.#activation(record, caller);
    if (!this.#mayRead(record, caller, vars)) throw this.#notFound();
    return { record, vars };
  }

  #notFound(): ApiError {
    return new ApiError('E_NOT_FOUND', { entity: this.info.entity.label });
  }

  /**
   * The record of `id` as the session lookup read it for this request (null: no such row), or
   * undefined when it did not read that one.
   */
  #readWithSession(request: FastifyRequest, id: string): Record<string, Value> | null | undefined {
    const read = request.auth.record;
    if (read === undefined || read.table !== this.info || read.id !== id) return undefined;
    return read.record;
  }

  /** The record of `id`, read now; null when no row has it. */
  async #readById(id: string): Promise<Record<string, Value> | null> {
    this.#byIdSql ??= this.#db
      .selectFrom(this.info.table)
      .select([...this.info.columns])
      .where('id', '=', '')
      .compile().sql;
    const [row] = await this.#database.selectValues(this.#byIdSql, [id]);
    return row === undefined ? null : decodeRow(this.info, row);
  }

  /**
   * A user's email is stored as `ninefold users add` stores it (trimmed, lower case), so that the
   * unique index and the sign-in see one address however it was typed (decision 0008).
   */
  #normalized(input: WireRecord): WireRecord {
    if (this.#entity !== 'User' || typeof input['email'] !== 'string') return input;
    return { ...input, email: normalizeEmail(input['email']) };
  }

  /**
   * The record in CEL, built once for the read check, the mask and the transitions; lazy, so that
   * only the fields their expressions read are converted.
   */
  #activation(record: Record<string, Value>, caller: Caller): Vars {
    const { user, now, today } = caller;
    return lazyActivation(this.#model, this.#entity, record, { user, now, today });
  }

  /** Whether the caller may read the record: what `can(…, 'read', …)` decides, with the request's access. */
  #mayRead(record: Record<string, Value>, caller: Caller, vars: Vars): boolean {
    const { user, now, today } = caller;
    return accessHolds(this.#model, this.#entity, caller.read, record, { user, now, today }, vars);
  }

  /**
   * The record as its reader may see it, with the transitions they may fire now. The record's keys
   * are the table's columns in their order (`decodeRow`'s records, or `inColumns`), so that the
   * answer lists them in that order whatever the mask leaves out.
   *
   * The record must be this request's own object (decoded from a row, or built by `inColumns`): when
   * nothing is masked it is answered as it is, without a copy, `_actions` added once every rule
   * about it has been decided. `readable`: the caller has just decided with `vars` that the user
   * may read the record (`#read`), which an unmasked record then need not decide again.
   */
  #present(
    record: Record<string, Value>,
    caller: Caller,
    vars: Vars = this.#activation(record, caller),
    readable = false,
  ): Record<string, Value> {
    const { user, now, today } = caller;
    const masked = caller.unmasked
      ? readable || this.#mayRead(record, caller, vars)
        ? record
        : null
      : maskRecord(this.#model, user, this.#entity, record, { now, today, vars });
    if (masked === null) {
      const shown = pick(record, SYSTEM_FIELDS);
      shown[ACTIONS_KEY] = [];
      return shown;
    }
    // decided before the record gains a key: its activation reads it while the transitions are
    const actions = availableTransitions(this.#model, user, this.#entity, record, { now, today, vars });
    masked[ACTIONS_KEY] = actions.map((t) => t.name);
    return masked;
  }

  /** Every ref the input sets must point at records that exist and that the user may read. */
  async #checkRefs(input: WireRecord, caller: Caller): Promise<void> {
    const issues: FieldIssue[] = [];
    for (const [name, value] of Object.entries(input)) {
      const field = this.info.entity.fields[name];
      if (field === undefined || field.type !== 'ref' || field.to === null) continue;
      if (value === null || value === undefined) continue;
      const ids = [...new Set((Array.isArray(value) ? value : [value]).map(String))];
      if (ids.length === 0) continue;
      const target = this.#model.entities[field.to];
      const access = target === undefined ? false : accessFor(this.#model, caller.user, 'read', target.name);
      let found = 0;
      if (target !== undefined && access !== false) {
        const filter = engineFilter(
          toSqlFilter(this.#model, target.name, access, {
            user: caller.user,
            now: caller.now,
            dialect: this.#database.dialect,
          }),
        );
        const rows = await sql<{ id: string }>`select ${sql.ref('id')} from ${sql.table(
          entityTable(this.#model, target).table,
        )} where ${sql.ref('id')} in (${sql.join(ids.map((id) => sql.val(id)))}) and (${filter})`.execute(
          this.#db,
        );
        found = rows.rows.length;
      }
      if (found !== ids.length) {
        issues.push({ field: name, code: 'E_REF_NOT_FOUND', params: { field: field.label } });
      }
    }
    if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  }

  async #updateRow(tx: Db, record: WireRecord, columns: readonly string[], version: number) {
    const result = await tx
      .updateTable(this.info.table)
      .set(encodeFields(this.info, record, [...new Set(columns)], this.#database.dialect))
      .where('id', '=', String(record['id']))
      .where('version', '=', version)
      .executeTakeFirst();
    // someone else wrote the record since it was read: nothing is overwritten
    if (Number(result.numUpdatedRows) !== 1) throw new ApiError('E_CONFLICT');
  }

  /** Runs a write in one transaction; a unique index's refusal becomes E_UNIQUE with its field. */
  async #write(work: (tx: Db) => Promise<void>): Promise<void> {
    try {
      await this.#db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // another request with the same Idempotency-Key committed first: `#once` answers its outcome
      if (isKeyTaken(error)) throw new KeyTaken(error);
      const field = uniqueFieldOf(this.info, error);
      throw new ApiError(
        'E_UNIQUE',
        { field: field?.label ?? 'value' },
        field === undefined
          ? {}
          : { errors: [{ field: field.name, code: 'E_UNIQUE', params: { field: field.label } }] },
      );
    }
  }
}

/** A history row as the API answers it. */
function historyEntry(row: Readonly<Record<string, unknown>>): HistoryEntry {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row['id']),
    at: String(row['at']),
    by: text(row['by']),
    action: String(row['action']) as HistoryEntry['action'],
    transition: text(row['transition']),
    from: text(row['from_state']),
    to: text(row['to_state']),
    changes:
      typeof row['changes'] === 'string'
        ? (JSON.parse(row['changes']) as Record<string, { from: Value; to: Value }>)
        : {},
  };
}

/**
 * A deleted record as it was when it was deleted, rebuilt from its history: its creation's values
 * and every later change in order, its state from its transitions. Null unless the history ends
 * with its deletion (a record that never existed, or one the history does not begin).
 */
export function recordAsDeleted(
  info: EntityTable,
  id: string,
  entries: readonly HistoryEntry[],
): Record<string, Value> | null {
  const [first] = entries;
  if (first?.action !== 'create' || entries.at(-1)?.action !== 'delete') return null;
  const record: Record<string, Value> = {};
  for (const column of info.columns) record[column] = null;
  Object.assign(record, { id, createdAt: first.at, updatedAt: first.at, createdBy: first.by, version: 0 });
  for (const entry of entries) {
    if (entry.action === 'delete') break;
    for (const [name, change] of Object.entries(entry.changes)) {
      if (info.stored.has(name)) record[name] = change.to;
    }
    if (info.hasState && entry.to !== null) record['state'] = entry.to;
    record['updatedAt'] = entry.at;
    record['version'] = Number(record['version']) + 1;
  }
  return record;
}

/** A write's Idempotency-Key was taken by another request while the write ran. */
class KeyTaken extends Error {
  constructor(override readonly cause: unknown) {
    super('The Idempotency-Key was taken by another request.');
  }
}

/** The unique field a database's violation names (the index in PostgreSQL, the column in SQLite). */
function uniqueFieldOf(info: EntityTable, error: unknown) {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  const text = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
  return Object.values(info.entity.fields).find(
    (f) =>
      f.unique &&
      (text.includes(`${info.table}.${f.name}`) || text.includes(`${info.table}_${f.name.toLowerCase()}_ux`)),
  );
}

function isSystem(name: string): boolean {
  return (SYSTEM_FIELDS as readonly string[]).includes(name);
}

function withoutSystem(record: Readonly<Record<string, Value>>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(record)) if (!isSystem(k)) out[k] = v;
  return out;
}

/** The record's columns in the table's order, without those it has no value for. */
function inColumns(info: EntityTable, record: Readonly<Record<string, Value>>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const column of info.columns) {
    const value = record[column];
    if (value !== undefined) out[column] = value;
  }
  return out;
}

function pick(record: Readonly<Record<string, Value>>, keys: readonly string[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const k of keys) if (record[k] !== undefined) out[k] = record[k];
  return out;
}

function etag(record: Readonly<Record<string, Value>>): string {
  return `"${String(record['version'])}"`;
}

/**
 * The version an `If-Match` names: E_PRECONDITION_REQUIRED when it is required and missing,
 * E_CONFLICT when it is not the record's current version. Without one (a delete), the version read.
 */
function ifMatch(
  request: FastifyRequest,
  required: boolean,
  record: Readonly<Record<string, Value>>,
): number {
  const current = Number(record['version']);
  const header = request.headers[IF_MATCH_HEADER];
  if (header === undefined || header === '') {
    if (required) throw new ApiError('E_PRECONDITION_REQUIRED');
    return current;
  }
  const match = /^\s*(?:W\/)?"?([0-9]{1,15})"?\s*$/.exec(header);
  if (match === null) {
    throw new ApiError('E_BAD_REQUEST', { reason: 'If-Match must be the record’s version, like "3"' });
  }
  if (Number(match[1]) !== current) throw new ApiError('E_CONFLICT');
  return current;
}

/** The request body as a record, or E_BAD_REQUEST for anything but a JSON object. */
function bodyObject(body: unknown): WireRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', { reason: 'the body must be a JSON object of field values' });
  }
  if (holdsNul(body)) {
    // PostgreSQL cannot store U+0000 in text; refused on every database alike
    throw new ApiError('E_BAD_REQUEST', { reason: 'text may not contain the NUL character (U+0000)' });
  }
  return body as WireRecord;
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v));
  }
  return false;
}

/**
 * One CSV cell (RFC 4180): quoted when it must be, and a text that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@` first) is prefixed with an apostrophe.
 */
export function csvCell(value: Value | undefined): string {
  if (value === null || value === undefined) return '';
  let text = Array.isArray(value)
    ? value.map(String).join('; ')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
