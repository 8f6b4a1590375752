/**
 * The writes of a resource: create (`POST /api/<resource>`), update (`PATCH …/<id>`), delete
 * (`DELETE …/<id>`) and each transition (`POST …/<id>/transitions/<name>`). Every rule is decided
 * by the engine; every write, its history entry and its effects (`effects/`: timers, notifications,
 * webhooks) share one transaction; each runs once per `Idempotency-Key` (`replay.ts`).
 */
import {
  type WireRecord,
  accessFor,
  applyDefaults,
  applyTransition,
  can,
  checkWrite,
  validateRecord,
} from '@ninefold/engine';
import { INVITATION_KEY, type InvitationAnswer, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { CompiledQuery } from 'kysely';
import { recordHistory } from '../audit/history.js';
import { inviteNewUser } from '../auth/invitations.js';
import { sessionCacheOf } from '../auth/session-cache.js';
import { normalizeEmail } from '../auth/users.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { recordEffects } from '../effects/record-effects.js';
import { type Caller, type Callers } from './caller.js';
import { CompiledSql } from './compiled-sql.js';
import { writeProblem } from './issues.js';
import { etag, present } from './present.js';
import { type RecordReader } from './record-read.js';
import { changeSet, changedFields, encodeFields, type EntityTable, tableColumns } from './records.js';
import { storedLists, writeLists } from './list-refs.js';
import { carryOut, planDelete, referencedError } from './delete-plan.js';
import { checkRefs } from './reference-checks.js';
import { holdFiles, releaseFiles } from '../files/holdings.js';
import { withFiles } from './write-files.js';
import { computedOf, refreshParents } from './computed-values.js';
import { idempotentWrites } from './replay.js';
import { type WebhookActor } from '../webhooks/enqueue.js';
import { type EntityResource } from './resource.js';
import { bodyObject, ifMatch } from './write-input.js';
import { inTransaction, updateRow } from './write-transaction.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The write handlers of one entity's resource. */
export interface WriteRoutes {
  readonly create: Handler;
  readonly update: Handler;
  readonly remove: Handler;
  transition(name: string): Handler;
}

/**
 * The write handlers of one entity's resource.
 *
 * @example const writes = writeRoutes(resource, callers, reader); app.post(resource.path, writes.create);
 */
export function writeRoutes(resource: EntityResource, callers: Callers, reader: RecordReader): WriteRoutes {
  const { model, entity, info } = resource;
  const once = idempotentWrites(resource, reader);
  /** The INSERT of a created record, compiled once. */
  const inserts = new CompiledSql(1);

  const create: Handler = async (request, reply) => {
    const caller = callers.of(request);
    return once(request, reply, caller, async (key) => {
      const { user, now } = caller;
      const given = normalized(entity, bodyObject(request.body, info.entity));
      if (accessFor(model, user, 'create', entity) === false) throw new ApiError('E_FORBIDDEN');
      const writeErrors = checkWrite(model, user, entity, given, { operation: 'create', now });
      if (writeErrors.length > 0) throw writeProblem(model, writeErrors);
      const input = await withFiles(resource, given, null, caller);
      const defaulted = applyDefaults(model, entity, input, { user, now });
      const filled = { ...defaulted, ...(await computedOf(resource, resource.db, info.entity, defaulted)) };
      const checked = validateRecord(model, entity, filled, { operation: 'create', user, now });
      if (!checked.ok) throw writeProblem(model, checked.errors);
      const at = now.toISOString();
      const record: Record<string, Value> = storedLists(info, {
        ...checked.record,
        id: newId(),
        createdAt: at,
        updatedAt: at,
        createdBy: user.id,
        version: 1,
      });
      if (info.hasState) record['state'] = model.states[entity]?.initial ?? null;
      else delete record['state'];
      if (!can(model, user, 'create', entity, record, { now })) throw new ApiError('E_FORBIDDEN');
      await checkRefs(resource, input, caller);

      const fields = info.columns.filter((c) => !isSystem(c) && record[c] !== null);
      const columns = tableColumns(info);
      const row = encodeFields(info, record, columns, resource.database.dialect);
      const keyed = { key, outcome: { status: 201, recordId: String(record['id']) }, now };
      let invitation: InvitationAnswer | null = null;
      await inTransaction(
        resource,
        keyed,
        async (tx) => {
          // every column bound in the table's order: one text for every create
          const insert = inserts.query(
            'insert',
            columns.map((c) => row[c]),
            () => tx.insertInto(info.table).values(row).compile(),
          );
          await tx.executeQuery(CompiledQuery.raw(insert.sql, [...insert.parameters]));
          await writeLists(tx, info, null, record);
          await holdFiles(tx, info.entity, null, record, now);
          await refreshParents(resource, tx, entity, null, record, caller);
          await recordHistory(tx, {
            entity,
            recordId: record['id'] as string,
            at: now,
            by: user.id,
            action: 'create',
            ...(info.hasState ? { toState: String(record['state']) } : {}),
            changes: changeSet(fields, null, record),
          });
          await recordEffects(tx, model, {
            entity,
            kind: 'created',
            transition: null,
            before: null,
            after: record,
            actor: user.id,
            actorSummary: actorSummaryOf(request),
            now,
          });
          // a new user has no password: their invitation is made with them (decision 0037)
          if (entity === 'User') invitation = await inviteNewUser(resource, tx, request, record);
        },
        goneRef(input, caller),
      );
      reply
        .code(201)
        .header('etag', etag(record))
        .header('location', `${resource.path}/${String(record['id'])}`);
      const shown = present(resource, inColumns(info, record), caller);
      return invitation === null ? shown : { ...shown, [INVITATION_KEY]: invitation };
    });
  };

  /**
   * A write to a User record changes who its sessions are (their roles, the fields rules read):
   * their cached sessions are read afresh at their next request.
   */
  const written = (id: unknown) => {
    if (entity === 'User') sessionCacheOf(resource.database).forgetUser(String(id));
  };

  const update: Handler = async (request, reply) => {
    const caller = callers.of(request);
    return once(request, reply, caller, async (key) => {
      const { user, now } = caller;
      const old = (await reader.read(request, caller)).record;
      const version = ifMatch(request, true, old);
      const given = normalized(entity, bodyObject(request.body, info.entity));
      if (!can(model, user, 'update', entity, old, { now })) throw new ApiError('E_FORBIDDEN');
      const writeErrors = checkWrite(model, user, entity, given, { operation: 'update', record: old, now });
      if (writeErrors.length > 0) throw writeProblem(model, writeErrors);
      const input = await withFiles(resource, given, old, caller);
      // the values computed from the record as it will be: its rules read them
      const computed = await computedOf(resource, resource.db, info.entity, { ...old, ...input });
      const checked = validateRecord(
        model,
        entity,
        { ...input, ...computed },
        { operation: 'update', old, user, now },
      );
      if (!checked.ok) throw writeProblem(model, checked.errors);
      const next: Record<string, Value> = storedLists(info, { ...old, ...withoutSystem(checked.record) });
      if (!can(model, user, 'update', entity, next, { old, now })) throw new ApiError('E_FORBIDDEN');
      await checkRefs(resource, input, caller);

      const changed = changedFields(info, old, next);
      // one's own e-mail is where reset links go: it changes on the account page only (decision 0042)
      if (entity === 'User' && String(old['id']) === user.id && changed.includes('email'))
        throw new ApiError('E_OWN_EMAIL');
      if (changed.length === 0) {
        reply.header('etag', etag(old));
        return present(resource, old, caller);
      }
      const saved: Record<string, Value> = { ...next, updatedAt: now.toISOString(), version: version + 1 };
      const keyed = { key, outcome: { status: 200, recordId: String(old['id']) }, now };
      await inTransaction(
        resource,
        keyed,
        async (tx) => {
          await updateRow(resource, tx, saved, [...changed, 'updatedAt', 'version'], version, old);
          await holdFiles(tx, info.entity, old, saved, now);
          await refreshParents(resource, tx, entity, old, saved, caller);
          await recordHistory(tx, {
            entity,
            recordId: String(old['id']),
            at: now,
            by: user.id,
            action: 'update',
            changes: changeSet(changed, old, saved),
          });
          await recordEffects(tx, model, {
            entity,
            kind: 'updated',
            transition: null,
            before: old,
            after: saved,
            actor: user.id,
            actorSummary: actorSummaryOf(request),
            now,
          });
        },
        goneRef(input, caller),
      );
      written(old['id']);
      reply.header('etag', etag(saved));
      return present(resource, inColumns(info, saved), caller);
    });
  };

  const remove: Handler = async (request, reply) => {
    const caller = callers.of(request);
    return once(request, reply, caller, async (key) => {
      const { user, now } = caller;
      const old = (await reader.read(request, caller)).record;
      const version = ifMatch(request, false, old);
      if (!can(model, user, 'delete', entity, old, { now })) throw new ApiError('E_FORBIDDEN');
      const fields = info.columns.filter((c) => !isSystem(c) && old[c] !== null);
      const keyed = { key, outcome: { status: 204, recordId: String(old['id']) }, now };
      const root = { entity, record: old };
      // a record referred to since the plan was made fails the commit (a foreign key): say by what
      const refused = async () => {
        const plan = await planDelete(resource.db, model, root, {
          user,
          now,
          checkPermissions: false,
          dialect: resource.database.dialect,
        });
        return plan.blocking === null ? new ApiError('E_CONFLICT') : referencedError(model, plan.blocking);
      };
      // users a cascade deleted or a setNull changed: their cached sessions are read afresh
      const users = new Set<string>();
      await inTransaction(
        resource,
        keyed,
        async (tx) => {
          users.clear(); // a retried transaction starts again
          // what the refs that point at it do (decision 0043): refuse, cascade, empty
          const plan = await planDelete(tx, model, root, {
            user,
            now,
            checkPermissions: true,
            dialect: resource.database.dialect,
          });
          if (plan.blocking !== null) throw referencedError(model, plan.blocking);
          await carryOut(tx, model, resource.database.dialect, plan, {
            user,
            now,
            actorSummary: actorSummaryOf(request),
            touched: async (t, child, before, after) => {
              if (child === 'User') users.add(String(before['id']));
              // the files a cascaded record held go with it
              if (after === null) await releaseFiles(t, String(before['id']), now);
              // a cascaded child's other parents keep their computed values (decision 0045)
              await refreshParents(resource, t, child, before, after, caller);
            },
          });
          const result = await tx
            .deleteFrom(info.table)
            .where('id', '=', String(old['id']))
            .where('version', '=', version)
            .executeTakeFirst();
          if (Number(result.numDeletedRows) !== 1) throw new ApiError('E_CONFLICT');
          await releaseFiles(tx, String(old['id']), now);
          await refreshParents(resource, tx, entity, old, null, caller);
          await recordHistory(tx, {
            entity,
            recordId: String(old['id']),
            at: now,
            by: user.id,
            action: 'delete',
            changes: changeSet(fields, old, null),
          });
          await recordEffects(tx, model, {
            entity,
            kind: 'deleted',
            transition: null,
            before: old,
            after: null,
            actor: user.id,
            actorSummary: actorSummaryOf(request),
            now,
          });
        },
        refused,
      );
      written(old['id']);
      for (const id of users) sessionCacheOf(resource.database).forgetUser(id);
      return reply.code(204).send();
    });
  };

  const transition =
    (name: string): Handler =>
    async (request, reply) => {
      const caller = callers.of(request);
      return once(request, reply, caller, async (key) => {
        const { user, now } = caller;
        const old = (await reader.read(request, caller)).record;
        const version = ifMatch(request, true, old);
        const given = request.body === undefined ? {} : bodyObject(request.body, info.entity);
        const input = await withFiles(resource, given, old, caller);
        const result = applyTransition(model, user, entity, old, name, input, { now });
        if (!result.ok) throw writeProblem(model, result.errors);
        await checkRefs(resource, input, caller);
        const next: Record<string, Value> = storedLists(info, { ...old, ...withoutSystem(result.record) });
        next['state'] = result.record['state'] ?? null;
        Object.assign(next, await computedOf(resource, resource.db, info.entity, next));
        const changed = changedFields(info, old, next);
        const saved: Record<string, Value> = { ...next, updatedAt: now.toISOString(), version: version + 1 };
        const keyed = { key, outcome: { status: 200, recordId: String(old['id']) }, now };
        await inTransaction(
          resource,
          keyed,
          async (tx) => {
            await updateRow(resource, tx, saved, [...changed, 'state', 'updatedAt', 'version'], version, old);
            await holdFiles(tx, info.entity, old, saved, now);
            await refreshParents(resource, tx, entity, old, saved, caller);
            await recordHistory(tx, {
              entity,
              recordId: String(old['id']),
              at: now,
              by: user.id,
              action: 'transition',
              transition: name,
              fromState: String(old['state']),
              toState: String(saved['state']),
              changes: changeSet(changed, old, saved),
            });
            await recordEffects(tx, model, {
              entity,
              kind: 'transition',
              transition: name,
              before: old,
              after: saved,
              actor: user.id,
              actorSummary: actorSummaryOf(request),
              now,
            });
          },
          goneRef(input, caller),
        );
        written(old['id']);
        reply.header('etag', etag(saved));
        return present(resource, inColumns(info, saved), caller);
      });
    };

  /**
   * A write whose ref's record was deleted after `checkRefs` read it fails its commit on the
   * foreign key: checked again, the field is named (E_REF_NOT_FOUND); otherwise E_CONFLICT.
   */
  const goneRef = (input: WireRecord, caller: Caller) => async () => {
    await checkRefs(resource, input, caller);
    return new ApiError('E_CONFLICT');
  };

  return { create, update, remove, transition };
}

/**
 * A user's email is stored as `ninefold users add` stores it (trimmed, lower case), so that the
 * unique index and the sign-in see one address however it was typed (decision 0008).
 */
function normalized(entity: string, input: WireRecord): WireRecord {
  if (entity !== 'User' || typeof input['email'] !== 'string') return input;
  return { ...input, email: normalizeEmail(input['email']) };
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

/** The signed-in user as a webhook's receiver is told of them: read from the session, not the database. */
function actorSummaryOf(request: FastifyRequest): WebhookActor | null {
  const user = request.auth.user;
  return user === null ? null : { id: user.id, name: user.name, email: user.email };
}
