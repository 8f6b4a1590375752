/**
 * An edit form whose record someone else changed meanwhile (decision 0060). The live stream
 * refreshes the record's query; the form keeps the record it was opened on, so it decides here: a
 * form without unsaved changes follows the new version at once; one with changes keeps them and
 * says, in a live region, that the record changed, offering to reload (losing the edits) or to keep
 * editing — saving then meets the version check, which answers E_CONFLICT as before.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { type ApiRecord, type Entity } from '@ninefold/model';
import { useEffect, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useModel } from '../../runtime/runtime';
import { lowerLabel } from '../detail/related';

/**
 * The newer version of the form's record, while the user decides what to do with their edits.
 *
 * @example const changed = useChangedElsewhere({ record: props.record, base, dirty, busy, follow });
 */
export function useChangedElsewhere(options: {
  /** The record as the app has it now. */
  readonly record: ApiRecord | null;
  /** The version the form is based on. */
  readonly base: ApiRecord | null;
  readonly dirty: boolean;
  /** Saving or leaving: a newer version is then the user's own. */
  readonly busy: boolean;
  /** Takes a newer version into a form without changes. */
  readonly follow: (record: ApiRecord) => void;
}): { readonly newer: ApiRecord | null; readonly dismiss: () => void } {
  const { record, base, dirty, busy, follow } = options;
  const [newer, setNewer] = useState<ApiRecord | null>(null);
  const version = record?.version;
  useEffect(() => {
    if (record === null || base === null || record.id !== base.id || record.version <= base.version) return;
    if (busy) return;
    if (dirty) setNewer(record);
    else {
      setNewer(null);
      follow(record);
    }
    // only a new version of the record asks; the form's own state changing does not
  }, [version]);
  return { newer, dismiss: () => setNewer(null) };
}

/** The notice, in a region that is always there so that its appearing is announced. */
export function ChangedElsewhereNotice({
  entity,
  shown,
  reloading,
  onReload,
  onKeep,
}: {
  entity: Entity;
  shown: boolean;
  reloading: boolean;
  onReload: () => void;
  onKeep: () => void;
}) {
  const t = useT();
  const name = lowerLabel(entity.label, useModel().product.locale);
  return (
    <div role="status" aria-live="polite" data-testid="changed-elsewhere">
      {shown && (
        <Alert color="orange" title={t('form.changedElsewhere')} role="none" mb="md" maw={720}>
          <Text size="sm">{t('form.changedElsewhereBody', { entity: name })}</Text>
          <Group mt="sm" gap="xs">
            <Button size="xs" variant="default" color="orange" loading={reloading} onClick={onReload}>
              {t('form.reload')}
            </Button>
            <Button size="xs" variant="subtle" onClick={onKeep}>
              {t('form.keepEditing')}
            </Button>
          </Group>
        </Alert>
      )}
    </div>
  );
}
