/**
 * A list under live changes (decision 0060): changed rows are refreshed in place by the stream's
 * reader; rows that others created are held back, so that the rows do not move under the user's
 * hands, and a button in a live region says how many there are ("3 new claims — show") and brings
 * them in. A resync or a change of the list's own parameters lets everything in.
 */
import { Button } from '@mantine/core';
import { type ApiRecord, type Entity } from '@ninefold/model';
import { useMemo, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider';
import { useLiveNews } from '../../live/use-live-news';
import { inPhrase } from './noun';

/** The rows to show, and the held-back new ones among those loaded. */
export interface LiveRows {
  readonly shown: readonly ApiRecord[];
  /** How many loaded rows are new records of others' that wait for "show". */
  readonly waiting: number;
  readonly show: () => void;
}

/**
 * Holds back the loaded rows that others created since the list was opened (or last shown).
 *
 * @example const live = useLiveRows(entity, records, JSON.stringify(params));
 */
export function useLiveRows(entity: Entity, records: readonly ApiRecord[], listKey: string): LiveRows {
  const [held, setHeld] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: listKey,
    ids: new Set(),
  });
  // another sort, filter or search is a fresh look at the list: nothing is held from before, nor
  // when the user comes back to this one
  if (held.key !== listKey) setHeld({ key: listKey, ids: EMPTY });
  const ids = held.key === listKey ? held.ids : EMPTY;
  // the rows drawn now: a create the stream tells of again (it may repeat what the list's own read
  // had: at least once) is not new to a list that shows it already
  const drawn = useRef(records);
  drawn.current = records;
  useLiveNews((news) => {
    if (news.resync) return setHeld({ key: listKey, ids: new Set() });
    const shownIds = new Set(drawn.current.map((record) => record.id));
    const created = news.changes.filter(
      (c) => c.entity === entity.name && c.kind === 'created' && !c.known && !shownIds.has(c.id),
    );
    if (created.length > 0)
      setHeld((before) => ({
        key: listKey,
        ids: new Set([...(before.key === listKey ? before.ids : []), ...created.map((c) => c.id)]),
      }));
  });
  return useMemo(() => {
    if (ids.size === 0) return { shown: records, waiting: 0, show: () => undefined };
    const shown = records.filter((record) => !ids.has(record.id));
    return {
      shown,
      waiting: records.length - shown.length,
      show: () => setHeld({ key: listKey, ids: new Set() }),
    };
  }, [records, ids, listKey]);
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The live region of a list's new rows: empty until some wait, then the button that shows them.
 * The region is always there, so that a screen reader announces what appears in it.
 */
export function NewRowsNotice({
  entity,
  waiting,
  onShow,
}: {
  entity: Entity;
  waiting: number;
  onShow: () => void;
}) {
  const { t, language } = useI18n();
  return (
    <div role="status" aria-live="polite" data-testid="new-rows">
      {waiting > 0 && (
        <Button variant="light" size="xs" onClick={onShow}>
          {t('list.newRows', {
            count: waiting,
            one: inPhrase(entity.label, language),
            other: inPhrase(entity.pluralLabel, language),
          })}
        </Button>
      )}
    </div>
  );
}
