/**
 * Where things live in the app: the screen of each kind for an entity, and the URL of a record.
 */
import { type Model, type Screen, type ScreenKind } from '@ninefold/model';
import { generatePath } from 'react-router';

/** The first screen of a kind for an entity (the spec's own come before generated ones). */
export function screenFor(model: Model, entity: string, kind: ScreenKind): Screen | undefined {
  return model.screens.find((s) => s.entity === entity && s.kind === kind);
}

/** The path of a screen, with its `:id` filled in. */
export function screenPath(screen: Screen, id?: string): string {
  return screen.path.includes(':id') ? generatePath(screen.path, { id: id ?? '' }) : screen.path;
}

/** The URL of a record's detail page, or null when its entity has none. */
export function detailPath(model: Model, entity: string, id: string): string | null {
  const screen = screenFor(model, entity, 'detail');
  return screen === undefined ? null : screenPath(screen, id);
}

export function editPath(model: Model, entity: string, id: string): string | null {
  const screen = screenFor(model, entity, 'edit');
  return screen === undefined ? null : screenPath(screen, id);
}

export function createPath(model: Model, entity: string): string | null {
  return screenFor(model, entity, 'create')?.path ?? null;
}

export function listPath(model: Model, entity: string): string | null {
  return screenFor(model, entity, 'list')?.path ?? null;
}
