/**
 * A record's name: what every screen, picker, CSV cell, notification and page title shows for a
 * record, so that none of them ever shows its bare id (decision 0065). One function, so that the
 * app and the server name a record alike.
 */
import { type Entity, type Value } from './model.js';

/** Writes one value of a name; the app passes its locale's formats, the server the plain text. */
export type NamePartFormat = (field: string, value: Value) => string;

/** A value as plain text: lists joined, an instant cut to its minute (`2026-03-01 14:02`). */
export const plainNamePart: NamePartFormat = (_field, value) => {
  if (Array.isArray(value)) return value.map(String).join(', ');
  const text = String(value);
  const instant = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(text);
  return instant === null ? text : `${instant[1]} ${instant[2]}`;
};

/** The fields a record's name is made of, in order. */
export function nameFields(entity: Entity): readonly string[] {
  return entity.title?.fields ?? [entity.display];
}

/**
 * The name of a record: its display field (or its entity's composed title); when those are empty,
 * the entity's label and the record's creation time. Never the id.
 *
 * @example recordName(person, { id: '…', first: 'Ada', last: 'Lovelace' }) // 'Ada Lovelace'
 */
export function recordName(
  entity: Entity,
  record: Readonly<Record<string, Value | undefined>>,
  format: NamePartFormat = plainNamePart,
): string {
  const parts: string[] = [];
  for (const field of nameFields(entity)) {
    const value = record[field];
    if (field === 'id' || value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    parts.push(format(field, value));
  }
  if (parts.length > 0) return [entity.title?.prefix ?? '', ...parts].filter((p) => p !== '').join(' ');
  const created = record['createdAt'];
  return typeof created === 'string' && created !== ''
    ? `${entity.label} ${format('createdAt', created)}`
    : entity.label;
}
