import { Loader, Text, Timeline, VisuallyHidden } from '@mantine/core';
import { IconArrowRight, IconCirclePlus, IconPencil, IconTrash } from '@tabler/icons-react';
import { type Entity, type HistoryEntry } from '@ninefold/model';
import { useHistory } from '../../api/records';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FieldValue, RefLink } from '../../components/FieldValue';
import { formatDateTime } from '../../format/values';
import { type MessageKey } from '../../i18n/catalogue';
import { useT } from '../../i18n/I18nProvider';
import { richText } from '../../i18n/rich';
import { useModel } from '../../runtime/runtime';

/**
 * What happened to a record, newest first: who did what and when, and the fields it changed with
 * their old and new values — only the fields the reader may see, which the server already masks.
 */
export function HistoryTimeline({ entity, id }: { entity: Entity; id: string }) {
  const { data, error, isPending, refetch } = useHistory(entity, id);
  const t = useT();
  if (isPending) return <Loader size="sm" aria-label={t('detail.historyLoading')} />;
  if (error !== null) return <ErrorPanel error={error} onRetry={() => void refetch()} alwaysRetry />;
  if (data.length === 0) return <Text c="dimmed">{t('detail.historyEmpty')}</Text>;
  const entries = [...data].reverse();
  return (
    <Timeline bulletSize={24} lineWidth={2} role="list" aria-label={t('detail.history')}>
      {entries.map((entry) => (
        <Timeline.Item
          key={entry.id}
          role="listitem"
          bullet={<ActionIcon action={entry.action} />}
          title={<EntryTitle entity={entity} entry={entry} />}
          data-history-action={entry.transition ?? entry.action}
        >
          <EntryMeta entry={entry} />
          <EntryChanges entity={entity} entry={entry} />
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

function ActionIcon({ action }: { action: HistoryEntry['action'] }) {
  const props = { size: 14, stroke: 1.8, 'aria-hidden': true } as const;
  switch (action) {
    case 'create':
      return <IconCirclePlus {...props} />;
    case 'delete':
      return <IconTrash {...props} />;
    case 'transition':
      return <IconArrowRight {...props} />;
    default:
      return <IconPencil {...props} />;
  }
}

const ACTION_WORDS: Record<HistoryEntry['action'], MessageKey> = {
  create: 'detail.historyCreated',
  update: 'detail.historyUpdated',
  delete: 'detail.historyDeleted',
  transition: 'detail.historyTransition',
};

function EntryTitle({ entity, entry }: { entity: Entity; entry: HistoryEntry }) {
  const model = useModel();
  const t = useT();
  const machine = model.states[entity.name];
  if (entry.action !== 'transition') return <>{t(ACTION_WORDS[entry.action])}</>;
  const label =
    (entry.transition !== null && machine?.transitions[entry.transition]?.label) ||
    t('detail.historyTransition');
  const stateLabel = (state: string | null) =>
    state === null ? '—' : (machine?.states[state]?.label ?? state);
  return (
    <>
      {label}{' '}
      <Text span fw={400} c="dimmed" size="sm">
        ({stateLabel(entry.from)}
        <span aria-hidden> → </span>
        <VisuallyHidden> {t('detail.historyTo')} </VisuallyHidden>
        {stateLabel(entry.to)})
      </Text>
    </>
  );
}

function EntryMeta({ entry }: { entry: HistoryEntry }) {
  const locale = useModel().product.locale;
  const t = useT();
  const at = <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>;
  return (
    <Text size="sm" c="dimmed">
      {/* no user: the system did it (a timed transition, the command line) */}
      {entry.by === null
        ? richText(t, 'detail.historyBySystem', { at })
        : richText(t, 'detail.historyBy', { at, by: <RefLink entity="User" id={entry.by} /> })}
    </Text>
  );
}

/** The changed fields the entity declares, in its order; the state is in the title already. */
function EntryChanges({ entity, entry }: { entity: Entity; entry: HistoryEntry }) {
  const t = useT();
  const changed = Object.values(entity.fields).filter((field) => entry.changes[field.name] !== undefined);
  if (changed.length === 0) return null;
  const created = entry.action === 'create';
  return (
    <ul style={{ margin: '0.25rem 0 0', paddingInlineStart: '1.1rem' }}>
      {changed.map((field) => {
        const change = entry.changes[field.name];
        if (change === undefined) return null;
        return (
          <li key={field.name} data-change={field.name}>
            <Text size="sm" span>
              <Text span fw={500} size="sm">
                {field.label}
              </Text>
              {': '}
              {created ? (
                <FieldValue field={field} value={change.to} />
              ) : (
                <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
                  <FieldValue field={field} value={change.from} />
                  <span aria-hidden>→</span>
                  <VisuallyHidden>{t('detail.historyChangedTo')}</VisuallyHidden>
                  <FieldValue field={field} value={change.to} />
                </span>
              )}
            </Text>
          </li>
        );
      })}
    </ul>
  );
}
