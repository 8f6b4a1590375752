/**
 * What a user's roles grant on an entity, before any record is looked at. It evaluates no
 * expression, so it needs no CEL: the client's navigation decides with it on first load, and the
 * engine's subpath `@ninefold/engine/grants` offers it without the evaluator.
 */
import type { Access, EntityAccess, Expr, Model, NavItem, Screen } from '@ninefold/model';
import { type UserContext, lookup } from './record.js';

export type Action = 'read' | 'create' | 'update' | 'delete';

/** The access each of the user's known roles has to an entity. */
export function grantsOf(model: Model, user: UserContext | null, entity: string): EntityAccess[] {
  if (user === null) return [];
  const out: EntityAccess[] = [];
  for (const name of new Set(user.roles)) {
    const role = lookup(model.roles, name);
    const access = role === undefined ? undefined : lookup(role.entities, entity);
    if (access !== undefined) out.push(access);
  }
  return out;
}

/** The union of the user's roles' access for an action: true, false, or the conditions of which any suffices. */
export function accessFor(model: Model, user: UserContext | null, action: Action, entity: string): Access {
  let any: Access = false;
  for (const grant of grantsOf(model, user, entity)) {
    const a = grant[action];
    if (a === true) return true;
    if (a === false) continue;
    const seen: readonly Expr[] = any === false ? [] : any.any;
    any = { any: [...seen, ...a.any.filter((e) => !seen.some((s) => s.source === e.source))] };
  }
  return any;
}

/**
 * Whether a user may open a screen: its roles when it names them, and the permission its kind
 * needs on its entity (read for lists and details, create and update for forms).
 */
export function mayOpenScreen(model: Model, user: UserContext | null, screen: Screen): boolean {
  if (user === null) return false;
  if (screen.roles !== null && !screen.roles.some((role) => user.roles.includes(role))) return false;
  if (screen.entity === null) return true;
  const needed: Action = screen.kind === 'create' ? 'create' : screen.kind === 'edit' ? 'update' : 'read';
  return accessFor(model, user, needed, screen.entity) !== false;
}

/** The navigation items the user may open, with their screens. */
export function visibleNav(model: Model, user: UserContext | null): { item: NavItem; screen: Screen }[] {
  const out: { item: NavItem; screen: Screen }[] = [];
  for (const item of model.nav) {
    const screen = model.screens.find((s) => s.id === item.screen);
    if (screen !== undefined && mayOpenScreen(model, user, screen)) out.push({ item, screen });
  }
  return out;
}

/**
 * Whether a user's roles make them an admin of the product: a role that may update every User
 * (no condition) and write their `roles`. Who can make themselves anything is trusted with the
 * product's jobs, webhook deliveries and mail outbox. A spec without roles gives its one role no
 * say over users (they are kept by `ninefold users`), so it has no admin over HTTP. The server
 * guards the admin routes with it; the client shows the admin pages by it.
 *
 * @example isAdmin(model, session.user.roles) // true for a role with User: { update: true, ... }
 */
export function isAdmin(model: Model, roles: readonly string[]): boolean {
  return roles.some((name) => {
    const role = lookup(model.roles, name);
    const access = role === undefined ? undefined : lookup(role.entities, 'User');
    return (
      access !== undefined &&
      access.update === true &&
      (access.writeFields === null || access.writeFields.includes('roles'))
    );
  });
}
