/**
 * Personal API tokens (decision 0038): a script sends `Authorization: Bearer nf_…` and acts as the
 * user who made the token, with the roles the token was given, as far as the user still holds them
 * and `auth.tokens` still lists them. The token is `TOKEN_PREFIX` and 256 random bits; the table
 * holds only its SHA-256, so a copy of the table opens nothing. A token is looked up at every
 * request that carries one (one statement, like an uncached session), so that a revocation, an
 * expiry, a role taken or a user disabled counts from the next request.
 */
import { type UserContext } from '@ninefold/engine';
import { type Model, TOKEN_PREFIX, type WireToken } from '@ninefold/model';
import * as crypto from 'node:crypto';
import { type Database } from '../db/open.js';
import { weakMemo } from '../memo.js';
import { type EntityTable, decodeRow, entityTable, selectColumns } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import { hashSessionId } from './sessions.js';
import { type UserSummary, toSummary, usersTable } from './users.js';

/** How often a token's last use is written: a busy script does not write at every request. */
const LAST_USE_INTERVAL_MS = 60_000;

/** The random bytes of a token: 256 bits, well over ASVS's 128. */
const TOKEN_BYTES = 32;

/** A token we could have made: the prefix and 43 base64url characters. Anything else is not looked up. */
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

export type TokenLookup =
  | {
      readonly status: 'active';
      readonly tokenId: string;
      /** The token's user, with the roles the token acts with. */
      readonly user: UserSummary;
      /** The user as the engine sees them, with the token's roles. */
      readonly context: UserContext;
    }
  /** Past its expiry, or revoked. */
  | { readonly status: 'expired' }
  /** Unknown, not a token at all, or its user is disabled. */
  | { readonly status: 'none' };

/**
 * A new token's secret: the prefix and 256 random bits, base64url.
 *
 * @example newTokenSecret() // 'nf_q3V…' (46 characters)
 */
export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${crypto.randomBytes(TOKEN_BYTES).toString('base64url')}`;
}

/**
 * The SHA-256 of a token, as stored (the same digest as a session id's).
 *
 * @example hashToken('nf_q3V…') // 64 hex digits
 */
export function hashToken(token: string): string {
  return hashSessionId(token);
}

/**
 * The roles a token acts with now: those it was given that its user still holds and that
 * `auth.tokens` still lists (a role taken from the user is taken from their tokens at once).
 *
 * @example effectiveRoles(model, ['integration', 'admin'], ['integration']) // ['integration']
 */
export function effectiveRoles(
  model: Model,
  tokenRoles: readonly string[],
  userRoles: readonly string[],
): string[] {
  return tokenRoles.filter((role) => userRoles.includes(role) && model.auth.tokens.includes(role));
}

/**
 * The token of an `Authorization: Bearer` header: active (its user with the token's roles), expired
 * (or revoked) or none. Records its last use, at most once a minute.
 *
 * @example const found = await readToken(database, model, 'nf_q3V…', new Date());
 */
export async function readToken(
  database: Database,
  model: Model,
  token: string,
  now: Date,
): Promise<TokenLookup> {
  if (!TOKEN_PATTERN.test(token)) return NONE;
  const queries = tokenQueries(database, model);
  const [row] = await database.selectValues(queries.lookup, [hashToken(token)]);
  if (row === undefined) return NONE;
  const tokenId = String(row[0]);
  const expiresAt = Date.parse(String(row[2]));
  if (row[3] !== null || !(expiresAt > now.getTime())) return EXPIRED;
  const owner = toSummary({ id: row[5], email: row[6], name: row[7], roles: row[8], disabled: row[9] });
  if (owner.disabled) return NONE;
  const roles = effectiveRoles(model, parseRoles(row[1]), owner.roles);
  const user: UserSummary = { ...owner, roles };
  const users = queries.users;
  const context =
    users === null
      ? { id: user.id, roles: [...roles] }
      : { ...decodeRow(users, row, TOKEN_COLUMNS), id: user.id, roles: [...roles] };
  const lastUsedAt = row[4] === null ? null : Date.parse(String(row[4]));
  if (lastUsedAt === null || now.getTime() - lastUsedAt >= LAST_USE_INTERVAL_MS) {
    await database.db
      .updateTable(TABLES.apiTokens)
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', tokenId)
      .execute();
  }
  return { status: 'active', tokenId, user, context };
}

const NONE: TokenLookup = { status: 'none' };
const EXPIRED: TokenLookup = { status: 'expired' };

/**
 * A lookup's row, by position: the token's `id`, `roles`, `expires_at`, `revoked_at` and
 * `last_used_at`, its user's `id`, `email`, `name`, `roles` and `disabled`, then (with a User
 * entity) every column of their record.
 */
const TOKEN_COLUMNS = 10;

interface TokenQueries {
  /** The User entity's table, whose columns the lookup reads, or null without a User entity. */
  readonly users: EntityTable | null;
  /** The token and its user's record in one statement; its only parameter is the token's hash. */
  readonly lookup: string;
}

function compileTokenQueries(database: Database, model: Model): TokenQueries {
  const entity = model.entities['User'];
  const users = entity === undefined ? null : entityTable(model, entity);
  const columns: string[] = [
    ...['id', 'roles', 'expires_at', 'revoked_at', 'last_used_at'].map((c) => `t.${c}`),
    ...['id', 'email', 'name', 'roles', 'disabled'].map((c) => `u.${c}`),
  ];
  // the user's record, lists of refs from their join tables (decision 0044)
  const record =
    users === null ? [] : selectColumns(users, database.dialect, 'u', (_, i) => `c${columns.length + i}`);
  const lookup = database.db
    .selectFrom(`${TABLES.apiTokens} as t`)
    .innerJoin(`${usersTable(model)} as u`, 'u.id', 't.user_id')
    .select([...columns.map((column, i) => `${column} as c${i}`), ...record])
    .where('t.token_hash', '=', '')
    .compile().sql;
  return { users, lookup };
}

/** Per database and model: the lookup is compiled once, not at every request. */
const queriesOf = weakMemo((database: Database) =>
  weakMemo((model: Model) => compileTokenQueries(database, model)),
);

function tokenQueries(database: Database, model: Model): TokenQueries {
  return queriesOf(database)(model);
}

/**
 * A token row as the API shows it: never its secret or hash.
 *
 * @example rows.map(wireToken)
 */
export function wireToken(row: Readonly<Record<string, unknown>>): WireToken {
  return {
    id: String(row['id']),
    name: String(row['name']),
    roles: parseRoles(row['roles']),
    createdAt: String(row['created_at']),
    expiresAt: String(row['expires_at']),
    lastUsedAt: row['last_used_at'] === null ? null : String(row['last_used_at']),
  };
}

function parseRoles(raw: unknown): string[] {
  try {
    const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
