/**
 * Says on a record's page that someone else just changed it (decision 0060): the live stream has
 * already refreshed the values shown; this line, in a live region, tells a screen reader and anyone
 * who was reading why they changed. The user's own changes are not announced.
 */
import { Text } from '@mantine/core';
import { type Entity } from '@ninefold/model';
import { useState } from 'react';
import { useLiveNews } from '../../live/use-live-news';

export function LiveNote({ entity, id }: { entity: Entity; id: string }) {
  const [changed, setChanged] = useState(false);
  useLiveNews((news) => {
    if (news.resync) return;
    const others = news.changes.some(
      (c) => c.entity === entity.name && c.id === id && !c.known && c.kind !== 'deleted',
    );
    if (others) setChanged(true);
  });
  return (
    <Text size="sm" c="dimmed" role="status" aria-live="polite" data-testid="live-note">
      {changed ? `Someone else changed this ${entity.label.toLowerCase()} just now.` : ''}
    </Text>
  );
}
