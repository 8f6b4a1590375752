/**
 * The triggers that tell every instance on a PostgreSQL server which cached sessions to forget
 * (decision 0058). They live in the database, so every change to a session or its user is told,
 * whoever makes it: this server, another instance, the CLI, a hand-run SQL client. Each sends
 * `NOTIFY ninefold_sessions` from inside the change's transaction, which the server delivers at its
 * commit (and never for a rollback): after the change is visible, so an instance that forgets then
 * reads the new row.
 *
 * A payload is a space-separated list of what to forget: `s:<id hash>` (a session, by the SHA-256
 * the table holds; never the id), `u:<user id>` (every session of a user) or `*` (all). A statement
 * sends as few notifications as its rows need, each under the 8000-byte payload limit; one that
 * touches more than `MANY` rows, or a TRUNCATE, sends `*`.
 *
 * | table                                  | change                               | told              |
 * | -------------------------------------- | ------------------------------------ | ----------------- |
 * | sessions                               | delete (sign-out, ended, expired)    | `s:` each session |
 * | sessions                               | update of who or when authenticated  | `s:` the session  |
 * | users                                  | update, delete (roles, disabled, …)  | `u:` each user    |
 * | a User's list of refs (decision 0044)  | insert, update, delete               | `u:` each holder  |
 *
 * The once-a-minute record of a session's use (`last_seen_at`) is not told: it changes nobody.
 */
import { type Kysely, sql } from 'kysely';
import { TABLES } from './names.js';
import { type Schema } from './schema.js';

/** The PostgreSQL channel the triggers notify and every instance's session cache listens to. */
export const SESSIONS_CHANNEL = 'ninefold_sessions';

/** More rows than this in one statement are told as `*`: forgetting all is cheaper than the list. */
const MANY = 500;

/** Room for one more token in a payload: PostgreSQL refuses one of 8000 bytes or more. */
const PAYLOAD_BYTES = 7000;

/** The name of every trigger here (trigger names are per table in PostgreSQL). */
const PREFIX = 'ninefold_sessions_';

/** A statement's rows, by the transition table `changed`: `TG_ARGV[0]` ('s' or 'u') and the column `TG_ARGV[1]`. */
const NOTIFY_ROWS = `
create or replace function ninefold_notify_sessions() returns trigger language plpgsql as $$
declare
  token text;
  payload text := '';
begin
  -- a TRUNCATE has no transition table: the expression that reads it must not be reached
  if tg_op = 'TRUNCATE' then
    perform pg_notify('${SESSIONS_CHANNEL}', '*');
    return null;
  end if;
  if (select count(*) from changed) > ${MANY} then
    perform pg_notify('${SESSIONS_CHANNEL}', '*');
    return null;
  end if;
  for token in select distinct tg_argv[0] || ':' || (to_jsonb(changed) ->> tg_argv[1]) from changed loop
    continue when token is null;
    -- an id too long to tell (never one of ours) is told as "forget all"
    if octet_length(token) > 200 then token := '*'; end if;
    if octet_length(payload) + octet_length(token) > ${PAYLOAD_BYTES} then
      perform pg_notify('${SESSIONS_CHANNEL}', payload);
      payload := '';
    end if;
    payload := case when payload = '' then token else payload || ' ' || token end;
  end loop;
  if payload <> '' then perform pg_notify('${SESSIONS_CHANNEL}', payload); end if;
  return null;
end $$`;

/** One session whose authentication changed (a row trigger: its condition skips `last_seen_at`). */
const NOTIFY_SESSION = `
create or replace function ninefold_notify_session() returns trigger language plpgsql as $$
begin
  perform pg_notify('${SESSIONS_CHANNEL}', 's:' || old.id_hash);
  return null;
end $$`;

interface TriggerSpec {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function statementTriggers(table: string, kind: 's' | 'u', column: string, events: readonly string[]) {
  const specs: TriggerSpec[] = events.map((event) => ({
    table,
    name: `${PREFIX}${event}`,
    definition:
      `after ${event} on ${quote(table)} referencing ${event === 'insert' ? 'new' : 'old'} table as changed ` +
      `for each statement execute function ninefold_notify_sessions('${kind}', '${column}')`,
  }));
  specs.push({
    table,
    name: `${PREFIX}truncate`,
    definition: `after truncate on ${quote(table)} for each statement execute function ninefold_notify_sessions('*', '')`,
  });
  return specs;
}

/** Every trigger needed: on the sessions table, the users table and the User's join tables. */
function triggersOf(users: string, joins: readonly string[] = []): TriggerSpec[] {
  const sessions = TABLES.sessions;
  return [
    ...statementTriggers(sessions, 's', 'id_hash', ['delete']),
    {
      table: sessions,
      name: `${PREFIX}update`,
      definition:
        `after update on ${quote(sessions)} for each row when (old.authenticated_at is distinct from ` +
        `new.authenticated_at or old.user_id is distinct from new.user_id or old.id_hash is distinct ` +
        `from new.id_hash) execute function ninefold_notify_session()`,
    },
    ...statementTriggers(users, 'u', 'id', ['update', 'delete']),
    ...joins.flatMap((t) => statementTriggers(t, 'u', 'holder', ['insert', 'update', 'delete'])),
  ];
}

/**
 * Creates (on PostgreSQL, in the migration's transaction) the functions and every missing trigger
 * that notify session changes; idempotent, and cheap when all are there.
 *
 * @example await installSessionTriggers(tx, desiredSchema(model), usersTable(model));
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
export async function installSessionTriggers(tx: Kysely<any>, schema: Schema, users: string): Promise<void> {
  await sql.raw(NOTIFY_ROWS).execute(tx);
  await sql.raw(NOTIFY_SESSION).execute(tx);
  const joins = Object.values(schema.tables).filter((t) => t.join?.holder === users);
  const wanted = triggersOf(
    users,
    joins.map((t) => t.name),
  );
  const present = await presentTriggers(tx, [...new Set(wanted.map((t) => t.table))]);
  for (const trigger of wanted) {
    if (present.has(`${trigger.table}.${trigger.name}`)) continue;
    await sql.raw(`create trigger ${quote(trigger.name)} ${trigger.definition}`).execute(tx);
  }
}

/**
 * Whether the sessions and users tables have their triggers: a database not migrated by this
 * version tells nothing, and a cache must not count on it.
 *
 * @example if (await hasSessionTriggers(database.db, usersTable(model))) cache.hearing(true);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
export async function hasSessionTriggers(db: Kysely<any>, users: string): Promise<boolean> {
  const wanted = triggersOf(users);
  const present = await presentTriggers(db, [TABLES.sessions, users]);
  return wanted.every((t) => present.has(`${t.table}.${t.name}`));
}

/** `table.trigger` for our triggers on these tables (of the current schema). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
async function presentTriggers(db: Kysely<any>, tables: readonly string[]): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname || '.' || t.tgname as name
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = current_schema()::regnamespace
      and c.relname in (${sql.join(tables)}) and t.tgname like ${`${PREFIX}%`}`.execute(db);
  return new Set(rows.map((r) => r.name));
}
