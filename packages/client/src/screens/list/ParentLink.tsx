/**
 * The way back from a child's list reached from its parent's page (`/comments?ticket[eq]=<id>`,
 * decision 0047): the list's filter on a ref names the parent, linked to its page. The filter is
 * in the URL, so the link survives a reload.
 */
import { useT } from '../../i18n/I18nProvider';
import { Group, Text } from '@mantine/core';
import { type Entity, type Model } from '@ninefold/model';
import { IconArrowLeft } from '@tabler/icons-react';
import { RefLink } from '../../components/FieldValue';
import { detailPath } from '../../runtime/paths';

const PARENT_FILTER = /^([A-Za-z_][A-Za-z0-9_]*)\[(eq|contains)\]$/;

/** The parents a list's filters name: a single ref filtered by one id, whose entity has a page. */
export function filteredParents(
  model: Model,
  entity: Entity,
  filters: Readonly<Record<string, string>>,
): { field: string; label: string; to: string; id: string }[] {
  const out: { field: string; label: string; to: string; id: string }[] = [];
  for (const [key, id] of Object.entries(filters)) {
    const [, name = '', op = ''] = PARENT_FILTER.exec(key) ?? [];
    const field = Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
    if (field === undefined || field.type !== 'ref' || field.to === null) continue;
    if ((field.many ? 'contains' : 'eq') !== op) continue;
    if (detailPath(model, field.to, id) === null) continue;
    out.push({ field: field.name, label: field.label, to: field.to, id });
  }
  return out;
}

/**
 * "← Ticket: Printer on fire" above a list filtered by its parent.
 *
 * @example <ParentLink model={model} entity={comment} filters={{ 'ticket[eq]': 't1' }} />
 */
export function ParentLink({
  model,
  entity,
  filters,
}: {
  model: Model;
  entity: Entity;
  filters: Readonly<Record<string, string>>;
}) {
  const t = useT();
  const parents = filteredParents(model, entity, filters);
  if (parents.length === 0) return null;
  return (
    <nav aria-label={t('list.parent')}>
      {parents.map((parent) => (
        <Group key={parent.field} gap={4} data-parent={parent.field}>
          <IconArrowLeft size={14} aria-hidden />
          <Text size="sm" c="dimmed" component="span">
            {parent.label}:
          </Text>
          <Text size="sm" component="span">
            <RefLink entity={parent.to} id={parent.id} />
          </Text>
        </Group>
      ))}
    </nav>
  );
}
