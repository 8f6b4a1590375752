/**
 * Says on a record's page that someone else just changed it (decision 0060): the live stream has
 * already refreshed the values shown; this line, in a live region, tells a screen reader and anyone
 * who was reading why they changed. The user's own changes are not announced.
 */
import { Text } from '@mantine/core';
import { type Entity } from '@ninefold/model';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useLiveNews } from '../../live/use-live-news';
import { useModel } from '../../runtime/runtime';
import { lowerLabel } from './related';

export function LiveNote({ entity, id }: { entity: Entity; id: string }) {
  const [changed, setChanged] = useState(false);
  const t = useT();
  const locale = useModel().product.locale;
  useLiveNews((news) => {
    if (news.resync) return;
    const others = news.changes.some(
      (c) => c.entity === entity.name && c.id === id && !c.known && c.kind !== 'deleted',
    );
    if (others) setChanged(true);
  });
  return (
    <Text size="sm" c="dimmed" role="status" aria-live="polite" data-testid="live-note">
      {changed ? t('detail.changedJustNow', { entity: lowerLabel(entity.label, locale) }) : ''}
    </Text>
  );
}
