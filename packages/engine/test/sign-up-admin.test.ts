/**
 * The compiler refuses `auth.signUp` to an admin (NF321) by its own reading of a role, since the
 * language does not import the engine. That reading and `isAdmin`, which guards the admin routes,
 * must agree on every shape of access to `User`: otherwise sign-up could hand out the admin role.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { isAdmin } from '../src/grants.js';

/** Roles of every shape of access to `User`, each named for what it may do. */
const ROLES: Record<string, string> = {
  everything: 'User: true',
  update: 'User: { read: true, update: true }',
  'update-roles': 'User: { update: true, fields: { write: [name, roles] } }',
  'update-name': 'User: { update: true, fields: { write: [name] } }',
  'update-self': 'User: { update: "id == user.id" }',
  'read-only': 'User: { read: true }',
  nothing: 'Note: { read: true }',
  heir: 'inherits: update',
  'heir-of-self-updater': 'inherits: update-self',
};

const spec = (auth: string) =>
  [
    'entities: { Note: { fields: { text: string } } }',
    'roles:',
    ...Object.entries(ROLES).map(([name, access]) => `  ${name}: { ${access} }`),
    auth,
    '',
  ].join('\n');

describe('sign-up to an admin', () => {
  const base = compile(spec(''), { file: 'roles.yaml' });
  if (!base.ok) throw new Error(base.diagnostics.map((d) => d.message).join('\n'));

  it('covers admins and non-admins', () => {
    const admins = Object.keys(ROLES).filter((role) => isAdmin(base.model, [role]));
    expect(admins).toEqual(['everything', 'update', 'update-roles', 'heir']);
  });

  for (const role of Object.keys(ROLES)) {
    it(`is refused by the compiler exactly when isAdmin says so: ${role}`, () => {
      const result = compile(spec(`auth: { signUp: ${role} }`), { file: 'roles.yaml' });
      const refused = result.diagnostics.some((d) => d.code === 'NF321');
      expect(refused).toBe(isAdmin(base.model, [role]));
      expect(result.ok).toBe(!refused);
    });
  }
});
