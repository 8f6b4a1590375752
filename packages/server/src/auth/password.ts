/**
 * Password hashes: argon2id at OWASP's minimum parameters (19 MiB, 2 passes, 1 lane).
 */
import { PASSWORD_MIN_LENGTH } from '@ninefold/model';
import { hash, verify } from '@node-rs/argon2';

// OWASP Password Storage Cheat Sheet; @node-rs/argon2's default algorithm is argon2id
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The shortest password accepted (NIST SP 800-63B); the whole policy is `password-policy.ts`. */
export const MIN_PASSWORD_LENGTH = PASSWORD_MIN_LENGTH;

/**
 * @example const stored = await hashPassword('correct horse battery staple'); // '$argon2id$v=19$m=19456,t=2,p=1$…'
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * Whether a password matches a stored hash; a malformed hash is a mismatch, never a crash.
 *
 * @example await verifyPassword(stored, 'guess') // false
 */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * A hash of no one's password, checked against when the email is unknown so that an unknown email
 * costs the same time as a wrong password.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(`dummy-${Math.random()}`);
  return dummy;
}
