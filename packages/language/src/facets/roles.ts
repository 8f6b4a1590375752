import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { checkExpression } from '../expressions/check.js';
import { type Access, type Entity, type EntityAccess, type Role, humanize } from '@ninefold/model';
import { type YEntry, type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { checkName } from './reader.js';

export const ROLE_KEYS = ['label', 'description', 'inherits'] as const;
export const ACCESS_KEYS = ['read', 'create', 'update', 'delete', 'fields'] as const;
export const FIELD_ACCESS_KEYS = ['read', 'write'] as const;
const ACTIONS = ['read', 'create', 'update', 'delete'] as const;

/** The role every signed-in user has when the spec declares no roles. */
export const DEFAULT_ROLE = 'user';

const NONE: EntityAccess = {
  read: false,
  create: false,
  update: false,
  delete: false,
  readFields: null,
  writeFields: null,
};
/** Everyone may see who other users are (for pickers and names), not their email or roles. */
const USER_DEFAULT: EntityAccess = { ...NONE, read: true, readFields: ['name'] };

/** The role names declared under `roles:`, read first so that other facets can refer to them. */
export function roleNames(ctx: CompileContext, entries: readonly YEntry[]): string[] {
  return entries.filter((e) => checkName(ctx.bag, 'role', e)).map((e) => e.key);
}

/**
 * Reads `roles:`. Each role grants, per entity, read/create/update/delete as `true`, `false`,
 * `all`, `own` or a CEL condition, and may narrow the fields it reads or writes. A role inherits
 * everything its parents may do: grants are unioned, never taken away.
 */
export function readRoles(ctx: CompileContext, entries: readonly YEntry[]): Record<string, Role> {
  const { reader, bag } = ctx;
  if (entries.length === 0) return defaultRoles(ctx);
  const declared: Record<string, { role: Role; parents: { name: string; span: YEntry['keySpan'] }[] }> = {};

  for (const entry of entries) {
    if (!checkName(bag, 'role', entry)) continue;
    const allowed = [...ROLE_KEYS, ...Object.keys(ctx.entities)];
    const m =
      entry.value.kind === 'scalar' && entry.value.value === null
        ? new Map<string, YEntry>()
        : reader.map(entry.value, `role \`${entry.key}\``, null);
    if (m === null) continue;
    const entities: Record<string, EntityAccess> = { User: USER_DEFAULT };
    const parents: { name: string; span: YEntry['keySpan'] }[] = [];
    let label = humanize(entry.key);
    let description = '';
    for (const [key, e] of m) {
      if (key === 'label') label = reader.string(e.value, `the label of role \`${entry.key}\``) ?? label;
      else if (key === 'description')
        description = reader.string(e.value, `the description of role \`${entry.key}\``) ?? '';
      else if (key === 'inherits')
        parents.push(
          ...reader
            .names(e.value, `\`inherits\` of role \`${entry.key}\``)
            .map((p) => ({ name: p.name, span: p.span })),
        );
      else if (own(ctx.entities, key) !== undefined)
        entities[key] = readAccess(ctx, entry.key, own(ctx.entities, key)!, e.value);
      else {
        const isEntityLike = /^[A-Z]/.test(key);
        bag.report(
          isEntityLike ? 'NF301' : 'NF201',
          e.keySpan,
          isEntityLike
            ? `\`${key}\` is not a declared entity, so role \`${entry.key}\` cannot be granted access to it.`
            : `\`${key}\` is not a key of role \`${entry.key}\`.`,
          suggestion(
            key,
            isEntityLike ? Object.keys(ctx.entities) : allowed,
            isEntityLike ? 'entity' : 'key',
          ),
        );
      }
    }
    for (const p of parents) {
      if (!entries.some((x) => x.key === p.name)) {
        bag.report(
          'NF304',
          p.span,
          `Role \`${entry.key}\` inherits from \`${p.name}\`, which is not a declared role.`,
          suggestion(
            p.name,
            entries.map((x) => x.key),
            'role',
          ),
        );
      }
    }
    declared[entry.key] = { role: { name: entry.key, label, description, inherits: [], entities }, parents };
    ctx.spans.set(`role:${entry.key}`, entry.keySpan);
  }

  // resolve inheritance: each role's ancestors, with cycles reported once at the role that closes them
  const resolved: Record<string, Role> = {};
  // memoised: without it, roles that share ancestors (a diamond chain) take exponential time
  const memo = new Map<string, string[]>();
  const ownRole = (name: string) => own(declared, name);
  const ancestors = (name: string, path: string[]): string[] => {
    const node = ownRole(name);
    if (node === undefined) return [];
    const known = memo.get(name);
    if (known !== undefined) return known;
    const out: string[] = [];
    for (const p of node.parents) {
      if (ownRole(p.name) === undefined) continue;
      if (path.includes(p.name)) {
        bag.report(
          'NF308',
          p.span,
          `Roles inherit in a cycle: ${[...path, p.name].map((r) => `\`${r}\``).join(' → ')}.`,
          'remove one of the `inherits` entries',
        );
        continue;
      }
      out.push(p.name, ...ancestors(p.name, [...path, p.name]));
    }
    const unique = [...new Set(out)];
    memo.set(name, unique);
    return unique;
  };
  for (const [name, { role }] of Object.entries(declared)) {
    const inherits = ancestors(name, [name]);
    let entities = { ...role.entities };
    for (const parent of inherits) entities = unionAll(entities, declared[parent]!.role.entities);
    resolved[name] = { ...role, inherits, entities };
  }
  return resolved;
}

function readAccess(ctx: CompileContext, role: string, entity: Entity, node: YNode): EntityAccess {
  const { reader, bag } = ctx;
  const where = `role \`${role}\` on \`${entity.name}\``;
  if (node.kind === 'scalar' && typeof node.value === 'boolean') {
    const v = node.value;
    return { read: v, create: v, update: v, delete: v, readFields: null, writeFields: null };
  }
  const m = reader.map(node, `the access of ${where}`, ACCESS_KEYS);
  if (m === null) return NONE;
  const access: { -readonly [K in keyof EntityAccess]: EntityAccess[K] } = { ...NONE };
  for (const action of ACTIONS) {
    const e = m.get(action);
    if (e !== undefined) access[action] = readGrant(ctx, e.value, entity, action, where);
  }
  const fields = m.get('fields');
  if (fields) {
    const fm = reader.map(fields.value, `the field access of ${where}`, FIELD_ACCESS_KEYS);
    const fieldNames = Object.keys(entity.fields);
    const list = (key: 'read' | 'write') => {
      const e = fm?.get(key);
      if (e === undefined) return null;
      const out: string[] = [];
      for (const { name, span } of reader.names(e.value, `the ${key} fields of ${where}`)) {
        if (own(entity.fields, name) === undefined)
          bag.report(
            'NF302',
            span,
            `\`${entity.name}\` has no field \`${name}\`.`,
            suggestion(name, fieldNames, 'field'),
          );
        else out.push(name);
      }
      return out;
    };
    access.readFields = list('read');
    access.writeFields = list('write');
  }
  return access;
}

function readGrant(
  ctx: CompileContext,
  node: YNode,
  entity: Entity,
  action: (typeof ACTIONS)[number],
  where: string,
): Access {
  if (node.kind !== 'scalar' || node.value === null || typeof node.value === 'number') {
    ctx.reader.wrongType(
      node,
      `\`${action}\` of ${where} must be true, false, \`all\`, \`own\` or a condition`,
    );
    return false;
  }
  if (typeof node.value === 'boolean') return node.value;
  const text = node.value.trim();
  if (text === 'all' || text === 'true') return true;
  if (text === 'none' || text === 'false') return false;
  const expr = checkExpression(ctx, ctx.envs, {
    source: text,
    span: node.span,
    raw: node.raw,
    scope: { entity, old: false },
    expect: 'bool',
    sql: action === 'read',
    what: `the ${action} permission of ${where}`,
  });
  return expr === null ? false : { any: [expr] };
}

/** The union of two grants: what either allows. */
export function unionAccess(a: Access, b: Access): Access {
  if (a === true || b === true) return true;
  if (a === false) return b;
  if (b === false) return a;
  const seen = new Set(a.any.map((e) => e.source));
  return { any: [...a.any, ...b.any.filter((e) => !seen.has(e.source))] };
}

function unionFields(a: readonly string[] | null, b: readonly string[] | null): readonly string[] | null {
  if (a === null || b === null) return null;
  return [...new Set([...a, ...b])];
}

function writes(access: EntityAccess): boolean {
  return access.create !== false || access.update !== false;
}

function unionAll(
  a: Record<string, EntityAccess>,
  b: Readonly<Record<string, EntityAccess>>,
): Record<string, EntityAccess> {
  const out = { ...a };
  for (const [entity, access] of Object.entries(b)) {
    const mine = out[entity];
    out[entity] =
      mine === undefined
        ? access
        : {
            read: unionAccess(mine.read, access.read),
            create: unionAccess(mine.create, access.create),
            update: unionAccess(mine.update, access.update),
            delete: unionAccess(mine.delete, access.delete),
            readFields:
              mine.read === false
                ? access.readFields
                : access.read === false
                  ? mine.readFields
                  : unionFields(mine.readFields, access.readFields),
            // a role that may neither create nor update writes nothing, so its list (null) widens nothing
            writeFields: !writes(mine)
              ? access.writeFields
              : !writes(access)
                ? mine.writeFields
                : unionFields(mine.writeFields, access.writeFields),
          };
  }
  return out;
}

/** With no roles declared: one `user` role that may do everything, users themselves read-only. */
function defaultRoles(ctx: CompileContext): Record<string, Role> {
  const entities: Record<string, EntityAccess> = { User: USER_DEFAULT };
  for (const name of Object.keys(ctx.entities)) {
    if (name !== 'User')
      entities[name] = {
        read: true,
        create: true,
        update: true,
        delete: true,
        readFields: null,
        writeFields: null,
      };
  }
  return {
    [DEFAULT_ROLE]: {
      name: DEFAULT_ROLE,
      label: 'User',
      description: 'Every signed-in user: the spec declares no roles, so each may do everything.',
      inherits: [],
      entities,
    },
  };
}
