/**
 * The names of a record's fields as a reader sees them. The spec's fields are labelled by the spec
 * (and its translation files); the system fields every record has (`SYSTEM_FIELDS`: its id, times,
 * author, version and state) are named by the app, so in the reader's language: here, the one
 * place that names them for every screen — list columns, filters, the column chooser, a record's
 * fields, a dashboard's groups. The server keeps its own English names (a CSV's header).
 */
import { type Entity, type SystemField, humanize } from '@ninefold/model';
import { type MessageKey } from '../i18n/catalogue';
import { type I18n } from '../i18n/i18n';

const SYSTEM_LABELS: Readonly<Record<SystemField, MessageKey>> = {
  id: 'common.systemField.id',
  createdAt: 'common.systemField.createdAt',
  updatedAt: 'common.systemField.updatedAt',
  createdBy: 'common.systemField.createdBy',
  version: 'common.systemField.version',
  state: 'common.systemField.state',
};

/**
 * The label of a field the entity does not declare: a system field's in the reader's language,
 * any other name humanised.
 *
 * @example systemFieldLabel('createdBy', t) // 'Created by' ('Créé par' in French)
 */
export function systemFieldLabel(name: string, t: I18n['t']): string {
  const key = Object.hasOwn(SYSTEM_LABELS, name) ? SYSTEM_LABELS[name as SystemField] : undefined;
  return key === undefined ? humanize(name) : t(key);
}

/**
 * The label of one of an entity's fields, system fields included.
 *
 * @example fieldLabel(claim, 'amount', t) // 'Amount' (the spec's); fieldLabel(claim, 'state', t) // 'State'
 */
export function fieldLabel(entity: Entity, name: string, t: I18n['t']): string {
  return entity.fields[name]?.label ?? systemFieldLabel(name, t);
}
