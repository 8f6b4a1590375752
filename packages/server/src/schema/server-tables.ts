/**
 * The server's own tables, whatever the spec: sessions, history, idempotency keys, the job queue,
 * webhook deliveries, notifications, the mail outbox, identity's one-time links, API tokens,
 * single sign-on identities and audit trail (decision 0035), files, and the log of record changes
 * (decision 0056). All are prefixed `ninefold_`.
 */
import { type StorageType } from '../db/dialect.js';
import { TABLES, indexName } from './names.js';
import { type Column, type Index, type Table } from './schema.js';

/**
 * Every table of the server's own.
 *
 * @example serverTables().map((t) => t.name) // ['ninefold_sessions', …]
 */
export function serverTables(): Table[] {
  return [
    ...builtinTables(),
    ...notificationTables(),
    ...identityTables(),
    fileTable(),
    limitTable(),
    eventTable(),
  ];
}

/**
 * The rate limits' counts (`limits/postgres-counters.ts`, decision 0057): a window per key, its end
 * in epoch milliseconds. Made on every dialect; counted in on a PostgreSQL server only.
 */
function limitTable(): Table {
  const limits = TABLES.limits;
  return {
    name: limits,
    entity: null,
    // no WAL: an upsert a request without waiting for a flush (19× the upserts a second, pgbench);
    // a crash forgets the counts of the current minute
    unlogged: true,
    columns: [
      system('key', 'text', 'string', { primaryKey: true }),
      system('count', 'integer', 'integer'),
      system('reset_at', 'integer', 'epoch-ms'),
    ],
    // the ended windows, for the prune
    indexes: [
      {
        name: indexName(limits, ['reset_at'], false),
        table: limits,
        columns: ['reset_at'],
        textColumns: [],
        unique: false,
      },
    ],
  };
}

/**
 * The table of uploaded files (`files/`, decision 0050). A file is held by at most one record
 * field: `entity`, `record_id` and `field` are null until a write attaches it, and a file nobody
 * attached within `UNATTACHED_FILE_TTL_MS` is removed. Its bytes are in the file store under `id`.
 */
function fileTable(): Table {
  const files = TABLES.files;
  return {
    name: files,
    entity: null,
    columns: [
      system('id', 'text', 'id', { primaryKey: true }),
      system('name', 'text', 'string'),
      system('size', 'integer', 'integer'),
      system('type', 'text', 'string'),
      system('uploaded_by', 'text', 'ref:User'),
      system('uploaded_at', 'text', 'datetime'),
      system('entity', 'text', 'string', { notNull: false }),
      system('record_id', 'text', 'id', { notNull: false }),
      system('field', 'text', 'string', { notNull: false }),
      system('attached_at', 'text', 'datetime', { notNull: false }),
    ],
    indexes: [
      // what a record holds, when it is deleted or its field changes
      index(files, ['record_id'], false),
      // the unattached, oldest first, for the sweep
      index(files, ['attached_at', 'uploaded_at'], false),
    ],
  };
}

/**
 * The log of record changes (`events/`, decision 0056): one row per committed change, written in its
 * transaction, read by every instance's hub after the last transaction it has seen (`tx`: the
 * writing transaction's id on PostgreSQL, a counter on SQLite) and kept `EVENT_REPLAY_MS` for
 * `Last-Event-ID`. A deleted record's last values stay here, server-side only, for the read check.
 */
function eventTable(): Table {
  const events = TABLES.events;
  return {
    name: events,
    entity: null,
    columns: [
      system('id', 'text', 'id', { primaryKey: true }),
      system('tx', 'integer', 'integer'),
      system('entity', 'text', 'string'),
      system('record_id', 'text', 'id'),
      system('kind', 'text', 'string'),
      system('transition', 'text', 'string', { notNull: false }),
      system('version', 'integer', 'integer'),
      system('at', 'text', 'datetime'),
      system('last_values', 'text', 'json', { notNull: false }),
    ],
    // the hub reads after a transaction; the prune, the oldest
    indexes: [
      {
        name: indexName(events, ['tx'], false),
        table: events,
        columns: ['tx'],
        textColumns: [],
        unique: false,
      },
      index(events, ['at'], false),
    ],
  };
}

/** A column the server defines (not a field of the spec's). */
export function system(
  name: string,
  storage: StorageType,
  meaning: string,
  options: { primaryKey?: boolean; notNull?: boolean } = {},
): Column {
  return {
    name,
    storage,
    meaning,
    values: null,
    primaryKey: options.primaryKey ?? false,
    notNull: options.notNull ?? true,
    required: options.notNull ?? true,
    backfill: null,
  };
}

/** An index of one of the server's tables; its text columns compare byte by byte. */
function index(table: string, columns: readonly string[], unique: boolean): Index {
  return { name: indexName(table, columns, unique), table, columns, textColumns: columns, unique };
}

/** The server's tables of notifications (`notifications/`) and of the mail outbox (`mail/`). */
function notificationTables(): Table[] {
  const notifications = TABLES.notifications;
  const settings = TABLES.notificationSettings;
  const outbox = TABLES.mailOutbox;
  return [
    {
      name: notifications,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('notification', 'text', 'string'),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('subject', 'text', 'string'),
        system('message', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
        system('read_at', 'text', 'datetime', { notNull: false }),
        // the job that delivered it: a second run of the job writes nothing twice
        system('job_id', 'text', 'id'),
      ],
      indexes: [
        index(notifications, ['job_id', 'user_id'], true),
        // a user's own, newest first, and their unread ones
        index(notifications, ['user_id', 'created_at', 'id'], false),
      ],
    },
    {
      name: settings,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('notification', 'text', 'string'),
        system('enabled', 'boolean', 'boolean'),
        system('updated_at', 'text', 'datetime'),
      ],
      indexes: [index(settings, ['user_id', 'notification'], true)],
    },
    {
      name: outbox,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        // the mail job that kept it: a second run keeps it once
        system('job_id', 'text', 'id'),
        system('to_address', 'text', 'email'),
        system('subject', 'text', 'string'),
        system('text', 'text', 'string'),
        system('html', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
      ],
      indexes: [index(outbox, ['job_id'], true), index(outbox, ['created_at', 'id'], false)],
    },
  ];
}

function builtinTables(): Table[] {
  const sessions = TABLES.sessions;
  const history = TABLES.history;
  const idempotency = TABLES.idempotency;
  const jobs = TABLES.jobs;
  const deliveries = TABLES.webhookDeliveries;
  const jobIndex = (columns: readonly string[], unique: boolean, textColumns: readonly string[]): Index => ({
    name: indexName(jobs, columns, unique),
    table: jobs,
    columns,
    textColumns,
    unique,
  });
  return [
    {
      name: sessions,
      entity: null,
      columns: [
        // the SHA-256 of the session id: a leaked table does not leak sessions
        system('id_hash', 'text', 'sha256', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('created_at', 'text', 'datetime'),
        system('last_seen_at', 'text', 'datetime'),
        // what the user's own list of sessions shows (decision 0035); null on sessions begun before
        system('user_agent', 'text', 'string', { notNull: false }),
        system('address', 'text', 'string', { notNull: false }),
        system('method', 'text', 'string', { notNull: false }),
        // when the user last proved a factor on this session (decision 0042); null on sessions begun before
        system('authenticated_at', 'text', 'datetime', { notNull: false }),
      ],
      indexes: [
        {
          name: indexName(sessions, ['user_id'], false),
          table: sessions,
          columns: ['user_id'],
          textColumns: ['user_id'],
          unique: false,
        },
      ],
    },
    {
      name: history,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('at', 'text', 'datetime'),
        system('by', 'text', 'ref:User', { notNull: false }),
        system('action', 'text', 'string'),
        system('transition', 'text', 'string', { notNull: false }),
        system('from_state', 'text', 'string', { notNull: false }),
        system('to_state', 'text', 'string', { notNull: false }),
        system('changes', 'text', 'json', { notNull: false }),
      ],
      indexes: [
        {
          name: indexName(history, ['entity', 'record_id', 'at'], false),
          table: history,
          columns: ['entity', 'record_id', 'at'],
          textColumns: ['entity', 'record_id', 'at'],
          unique: false,
        },
      ],
    },
    {
      // the writes each Idempotency-Key was taken for (http/idempotency.ts)
      name: idempotency,
      entity: null,
      columns: [
        // the SHA-256 of the user's id and the key: a key is its user's own
        system('key_hash', 'text', 'sha256', { primaryKey: true }),
        system('fingerprint', 'text', 'sha256'),
        system('status', 'integer', 'integer'),
        system('record_id', 'text', 'id', { notNull: false }),
        system('created_at', 'text', 'datetime'),
      ],
      indexes: [
        {
          name: indexName(idempotency, ['created_at'], false),
          table: idempotency,
          columns: ['created_at'],
          textColumns: ['created_at'],
          unique: false,
        },
      ],
    },
    {
      // the outbox of effects and the runner's queue (jobs/); times it compares are epoch milliseconds
      name: jobs,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('kind', 'text', 'string'),
        system('payload', 'text', 'json'),
        system('state', 'text', 'string'),
        system('attempts', 'integer', 'integer'),
        system('max_attempts', 'integer', 'integer'),
        system('run_at', 'integer', 'epoch-ms'),
        system('locked_until', 'integer', 'epoch-ms', { notNull: false }),
        system('lease_owner', 'text', 'string', { notNull: false }),
        system('last_error', 'text', 'string', { notNull: false }),
        // one pending and one running job of a kind per key; cleared when the job is done or dead
        system('dedupe_key', 'text', 'string', { notNull: false }),
        system('created_at', 'text', 'datetime'),
        system('updated_at', 'text', 'datetime'),
        // jobs of one sequence run in the order written (NewJob.sequence); null for most
        system('sequence', 'text', 'string', { notNull: false }),
        // the job's own backoff (NewJob.backoff); null for the runner's
        system('backoff_base_ms', 'integer', 'integer', { notNull: false }),
        system('backoff_cap_ms', 'integer', 'integer', { notNull: false }),
      ],
      indexes: [
        // what the runner claims: the due jobs of a state, oldest first
        // (the runner compares `state` under the database's collation: no "C" here)
        jobIndex(['state', 'run_at'], false, []),
        // a key names one piece of work: one job of it waits, one runs (a follow-up; decision 0029)
        jobIndex(['kind', 'dedupe_key', 'state'], true, []),
        // the admin's list, newest first
        jobIndex(['created_at', 'id'], false, ['created_at', 'id']),
        // the claim's look for an earlier unfinished job of a sequence
        jobIndex(['sequence', 'state'], false, []),
      ],
    },
    {
      // the log of webhook deliveries (webhooks/): one row per delivery job, its id the job's
      name: deliveries,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('webhook', 'text', 'string'),
        system('event', 'text', 'string'),
        system('entity', 'text', 'string'),
        system('record_id', 'text', 'id'),
        system('state', 'text', 'string'),
        system('attempts', 'integer', 'integer'),
        system('last_status', 'integer', 'integer', { notNull: false }),
        system('last_answer', 'text', 'string', { notNull: false }),
        // the message (the job's payload), kept for a re-send however long jobs are kept
        system('message', 'text', 'json'),
        system('created_at', 'text', 'datetime'),
        system('updated_at', 'text', 'datetime'),
      ],
      indexes: [
        // the admin's list, newest first
        {
          name: indexName(deliveries, ['created_at', 'id'], false),
          table: deliveries,
          columns: ['created_at', 'id'],
          textColumns: ['created_at', 'id'],
          unique: false,
        },
      ],
    },
  ];
}

/**
 * Identity's tables (decision 0035): one-time links (invitations, e-mail checks, password resets),
 * personal API tokens, the provider identities single sign-on linked to users, and the audit trail.
 * Links and tokens are kept as the SHA-256 of their secret, never the secret.
 */
function identityTables(): Table[] {
  const links = TABLES.links;
  const tokens = TABLES.apiTokens;
  const identities = TABLES.identities;
  const events = TABLES.authEvents;
  return [
    {
      name: links,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('token_hash', 'text', 'sha256'),
        // 'invitation' | 'sign-up' | 'password-reset' (LinkPurpose)
        system('purpose', 'text', 'string'),
        // the user it is for; null for a sign-up, whose user is made when the address is checked
        system('user_id', 'text', 'ref:User', { notNull: false }),
        system('email', 'text', 'email'),
        // what the link carries besides: a sign-up's name and password hash (JSON); never shown
        system('payload', 'text', 'json', { notNull: false }),
        system('created_at', 'text', 'datetime'),
        system('expires_at', 'text', 'datetime'),
        system('used_at', 'text', 'datetime', { notNull: false }),
        system('revoked_at', 'text', 'datetime', { notNull: false }),
        // who made it (an admin's id), or null (the command line, the person themselves)
        system('created_by', 'text', 'ref:User', { notNull: false }),
      ],
      indexes: [
        index(links, ['token_hash'], true),
        index(links, ['purpose', 'user_id'], false),
        index(links, ['created_at', 'id'], false),
      ],
    },
    {
      name: tokens,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('token_hash', 'text', 'sha256'),
        system('user_id', 'text', 'ref:User'),
        system('name', 'text', 'string'),
        system('roles', 'text', 'json'),
        system('created_at', 'text', 'datetime'),
        system('expires_at', 'text', 'datetime'),
        system('last_used_at', 'text', 'datetime', { notNull: false }),
        system('revoked_at', 'text', 'datetime', { notNull: false }),
      ],
      indexes: [index(tokens, ['token_hash'], true), index(tokens, ['user_id', 'created_at'], false)],
    },
    {
      name: identities,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('issuer', 'text', 'url'),
        system('subject', 'text', 'string'),
        system('email', 'text', 'email', { notNull: false }),
        system('created_at', 'text', 'datetime'),
        system('last_sign_in_at', 'text', 'datetime', { notNull: false }),
      ],
      indexes: [index(identities, ['issuer', 'subject'], true), index(identities, ['user_id'], false)],
    },
    {
      name: events,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('at', 'text', 'datetime'),
        system('kind', 'text', 'string'),
        system('user_id', 'text', 'ref:User', { notNull: false }),
        system('email', 'text', 'email', { notNull: false }),
        system('actor_id', 'text', 'ref:User', { notNull: false }),
        system('address', 'text', 'string', { notNull: false }),
        system('user_agent', 'text', 'string', { notNull: false }),
        system('detail', 'text', 'json', { notNull: false }),
      ],
      indexes: [index(events, ['at', 'id'], false), index(events, ['user_id', 'at'], false)],
    },
    ...secondFactorTables(),
  ];
}

/**
 * The second factor's tables (decision 0041): a user's authenticator secret (it must be readable to
 * check a code), their recovery codes and the sign-ins waiting for a code, both as SHA-256 only.
 */
function secondFactorTables(): Table[] {
  const mfa = TABLES.mfa;
  const codes = TABLES.recoveryCodes;
  const challenges = TABLES.mfaChallenges;
  return [
    {
      name: mfa,
      entity: null,
      columns: [
        system('user_id', 'text', 'ref:User', { primaryKey: true }),
        // base32, as authenticator apps take it
        system('secret', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
        // null while enrolled but not yet confirmed with a code: the factor is not on
        system('enabled_at', 'text', 'datetime', { notNull: false }),
        // the last 30-second step a code was accepted for: no code works twice (ASVS 6.5.1)
        system('last_step', 'integer', 'integer', { notNull: false }),
      ],
      indexes: [],
    },
    {
      name: codes,
      entity: null,
      columns: [
        system('id', 'text', 'id', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        system('code_hash', 'text', 'sha256'),
        system('created_at', 'text', 'datetime'),
        system('used_at', 'text', 'datetime', { notNull: false }),
      ],
      indexes: [index(codes, ['user_id', 'code_hash'], true)],
    },
    {
      name: challenges,
      entity: null,
      columns: [
        system('id_hash', 'text', 'sha256', { primaryKey: true }),
        system('user_id', 'text', 'ref:User'),
        // how the sign-in began ('password', 'password-reset'): the session it ends in says so
        system('method', 'text', 'string'),
        system('created_at', 'text', 'datetime'),
        system('expires_at', 'text', 'datetime'),
        system('failures', 'integer', 'integer'),
      ],
      indexes: [index(challenges, ['user_id'], false)],
    },
  ];
}
