/**
 * Names in the database: tables from resources, indexes from their table and columns, and the
 * server's own tables, all prefixed `ninefold_` so that no entity can take their names.
 */
import { createHash } from 'node:crypto';

/** The server's own tables. The User entity's table is `users`, from its resource. */
export const TABLES = {
  migrations: 'ninefold_migrations',
  sessions: 'ninefold_sessions',
  history: 'ninefold_history',
  idempotency: 'ninefold_idempotency',
  /** Start-up work one instance does for all (the demo seeding), claimed here: `startup-lease.ts`. */
  leases: 'ninefold_leases',
  /** The instances serving a database, each renewing its row: `instances.ts` (decision 0059). */
  instances: 'ninefold_instances',
  /** The outbox of effects and the job runner's queue: `jobs/`. */
  jobs: 'ninefold_jobs',
  /** The log of webhook deliveries admins see and re-send: `webhooks/`. */
  webhookDeliveries: 'ninefold_webhook_deliveries',
  /** Each user's in-app notifications: `notifications/`. */
  notifications: 'ninefold_notifications',
  /** Which notifications each user turned off (or on again): `notifications/`. */
  notificationSettings: 'ninefold_notification_settings',
  /** Mail kept instead of sent while no SMTP_URL is set, for admins to read: `mail/`. */
  mailOutbox: 'ninefold_mail_outbox',
  /** One-time links: invitations, e-mail checks, password resets (`auth/links.ts`, decision 0035). */
  links: 'ninefold_links',
  /** Personal API tokens, hashed (`auth/`). */
  apiTokens: 'ninefold_api_tokens',
  /** Which OpenID provider's subject is which user (`auth/`). */
  identities: 'ninefold_identities',
  /** The identity audit trail (`audit/auth-events.ts`). */
  authEvents: 'ninefold_auth_events',
  /** Each user's authenticator app secret and whether it is on (`auth/mfa/`, decision 0041). */
  mfa: 'ninefold_mfa',
  /** Each user's recovery codes, hashed (`auth/mfa/recovery-codes.ts`). */
  recoveryCodes: 'ninefold_recovery_codes',
  /** Sign-ins waiting for their second step, hashed (`auth/mfa/challenges.ts`). */
  mfaChallenges: 'ninefold_mfa_challenges',
  /**
   * Every uploaded file: its name, size, sniffed type and digest, who uploaded it, and the record
   * field that holds it once attached (`files/`, decision 0050). The bytes are in the file store.
   */
  files: 'ninefold_files',
  /** The rate limits' counts on a PostgreSQL server, shared by its instances (`limits/`, decision 0057). */
  limits: 'ninefold_limits',
  /** The log of record changes the live events stream sends and replays (`events/`, decision 0056). */
  events: 'ninefold_events',
  /** SQLite, before decision 0021: a count of the writes to the sessions and users tables; `migrate` drops it. */
  sessionStamp: 'ninefold_session_stamp',
} as const;

/** The users table's column that holds the argon2id hash; never part of the User entity. */
export const PASSWORD_HASH_COLUMN = 'password_hash';

/**
 * The users table's column that holds the locale the user picked in the app (decision 0067), null
 * until they pick one; never part of the User entity.
 */
export const LOCALE_COLUMN = 'preferred_locale';

/** PostgreSQL truncates identifiers beyond 63 bytes. */
const MAX_IDENTIFIER = 63;

/**
 * The table of an entity: its resource in snake case.
 *
 * @example tableName('expense-claims') // 'expense_claims'
 */
export function tableName(resource: string): string {
  const snake = resource
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const safe = /^[a-z]/.test(snake) ? snake : `t_${snake}`;
  return fit(safe);
}

/**
 * The join table of a list of refs (decision 0044): its holder's table, two underscores, the field
 * in lower case. An entity's table never holds two underscores in a row (`tableName` folds every
 * run of other characters into one), so no entity can take a join table's name.
 *
 * @example listTableName('projects', 'members') // 'projects__members'
 */
export function listTableName(holderTable: string, field: string): string {
  return fit(`${holderTable}__${field.toLowerCase()}`);
}

/**
 * The join table of an entity's list field, by entity name, for the engine's SQL (`SqlOptions.listTable`).
 *
 * @example listTableOf(model)('Project', 'members') // 'projects__members'
 */
export function listTableOf(model: {
  readonly entities: Readonly<Record<string, { readonly resource: string }>>;
}): (entity: string, field: string) => string {
  return (entity, field) => listTableName(tableName(model.entities[entity]?.resource ?? entity), field);
}

/**
 * The name of an index: unique across the database, as PostgreSQL and SQLite both require.
 *
 * @example indexName('claims', ['createdAt', 'id'], false) // 'claims_createdat_id_ix'
 */
export function indexName(table: string, columns: readonly string[], unique: boolean): string {
  return fit(`${table}_${columns.map((c) => c.toLowerCase()).join('_')}_${unique ? 'ux' : 'ix'}`);
}

/**
 * The name of a column's foreign key constraint (PostgreSQL; decision 0043).
 *
 * @example foreignKeyName('products', 'category') // 'products_category_fk'
 */
export function foreignKeyName(table: string, column: string): string {
  return fit(`${table}_${column.toLowerCase()}_fk`);
}

function fit(name: string): string {
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${hash}`;
}
