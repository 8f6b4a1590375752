/**
 * Demo accounts: one per role, `<role>@demo.ninefold.local` with a person's name, with a fresh random password at every
 * start (decision 0008): the printed credentials always work, and none is ever published.
 */
import { type Model } from '@ninefold/model';
import { randomBytes } from 'node:crypto';
import { type Database, addUser, disableUser, findUser, resetPassword, setRoles } from '@ninefold/server';
import { FIRST_NAMES, LAST_NAMES } from './words.js';

export interface DemoAccount {
  readonly role: string;
  readonly email: string;
  readonly password: string;
}

export const DEMO_DOMAIN = 'demo.ninefold.local';

/**
 * Creates or refreshes one account per role and returns their credentials.
 *
 * @example for (const a of await seedDemoAccounts(database, model)) console.log(a.email, a.password);
 */
export async function seedDemoAccounts(database: Database, model: Model): Promise<DemoAccount[]> {
  const accounts: DemoAccount[] = [];
  for (const [k, role] of Object.values(model.roles).entries()) {
    const email = `${role.name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-')}@${DEMO_DOMAIN}`;
    const password = randomBytes(12).toString('base64url');
    const existing = await findUser(database, model, email);
    if (existing === null) {
      await addUser(database, model, { email, name: personName(k), roles: [role.name], password });
    } else {
      await setRoles(database, model, email, [role.name]);
      if (existing.disabled) await disableUser(database, model, email, { enabled: true });
      await resetPassword(database, model, email, password);
    }
    accounts.push({ role: role.name, email, password });
  }
  return accounts;
}

/** The k-th demo person's name: a demo reads like a team of people, not "Demo Manager". */
function personName(k: number): string {
  return `${FIRST_NAMES[(k * 7) % FIRST_NAMES.length]!} ${LAST_NAMES[(k * 11 + 3) % LAST_NAMES.length]!}`;
}

/** The accounts as a table for the terminal. */
export function formatDemoAccounts(accounts: readonly DemoAccount[]): string {
  const width = Math.max(...accounts.map((a) => a.email.length), 5);
  const lines = accounts.map((a) => `  ${a.email.padEnd(width)}  ${a.password}  (${a.role})`);
  return ['Demo accounts (passwords change at every start):', ...lines].join('\n');
}
