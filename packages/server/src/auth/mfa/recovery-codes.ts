/**
 * Recovery codes (decision 0041): ten per user, each 120 random bits written as six groups of four
 * base32 characters, shown once and stored only as SHA-256 — enough entropy that a plain hash is
 * as safe as a password hash would be (ASVS 5.0 6.5.2 asks for 112 bits). Each works once: it is
 * taken by a conditional update, so two requests with one code cannot both succeed.
 */
import { RECOVERY_CODE_COUNT } from '@ninefold/model';
import { type Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { Secret } from 'otpauth';
import { decodeInteger } from '../../db/dialect.js';
import { newId } from '../../ids.js';
import { TABLES } from '../../schema/names.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** 120 bits: base32 writes 15 bytes as exactly 24 characters. */
const CODE_BYTES = 15;
/** A recovery code as typed: 24 base32 characters, in any case, with or without dashes and spaces. */
const CODE_SHAPE = /^[A-Z2-7]{24}$/;

/**
 * Whether a typed code has a recovery code's shape (not an authenticator app's six digits).
 *
 * @example isRecoveryCodeShape('ABCD-EFGH-IJKL-MNOP-QRST-UVWX') // true
 */
export function isRecoveryCodeShape(code: string): boolean {
  return CODE_SHAPE.test(normalize(code));
}

/**
 * Replaces the user's recovery codes with ten new ones and answers them, the only time they are seen.
 *
 * @example const codes = await replaceRecoveryCodes(tx, user.id, now()); // ['ABCD-EFGH-…', …]
 */
export async function replaceRecoveryCodes(db: Db, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.deleteFrom(TABLES.recoveryCodes).where('user_id', '=', userId).execute();
  await db
    .insertInto(TABLES.recoveryCodes)
    .values(
      codes.map((code) => ({
        id: newId(),
        user_id: userId,
        code_hash: hashCode(code),
        created_at: now.toISOString(),
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

/**
 * Uses one of the user's recovery codes: true when it was theirs and unused (it is used now).
 *
 * @example if (await useRecoveryCode(database.db, user.id, typed, now())) …
 */
export async function useRecoveryCode(db: Db, userId: string, code: string, now: Date): Promise<boolean> {
  if (!isRecoveryCodeShape(code)) return false;
  const result = await db
    .updateTable(TABLES.recoveryCodes)
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * How many of the user's recovery codes are unused.
 *
 * @example await recoveryCodesLeft(database.db, user.id) // 9
 */
export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom(TABLES.recoveryCodes)
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return decodeInteger(row?.count ?? 0);
}

function newCode(): string {
  const text = new Secret({ buffer: randomBytes(CODE_BYTES).buffer }).base32;
  return text.match(/.{4}/g)!.join('-');
}

function normalize(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

function hashCode(code: string): string {
  return createHash('sha256').update(normalize(code)).digest('hex');
}
