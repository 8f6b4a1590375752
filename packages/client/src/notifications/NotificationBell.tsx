/**
 * The bell in the shell's header: the signed-in user's unread count, and a popover with their
 * newest notifications — subject, message, time, an unread marker — each linking to its record's
 * detail page when the entity has one. Opening a notification marks it read; "Mark all read" marks
 * the rest. Its own chunk, loaded after the first paint: the popover's code is not the first page's.
 */
import '../styles/controls';
import './notifications.css';
import { Box, Group, Popover, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type WireNotification } from '@ninefold/model';
import { IconBell } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../components/ErrorPanel';
import { IconButton, TextButton } from '../components/buttons';
import { formatDateTime } from '../format/values';
import { detailPath } from '../runtime/paths';
import { useModel } from '../runtime/runtime';
import {
  useMarkAllRead,
  useMarkRead,
  useNewestNotifications,
  useRefreshAfterWrites,
} from './notifications-api';
import { type I18n } from '../i18n/i18n';
import { useT } from '../i18n/I18nProvider';

/**
 * The accessible name of the bell: what it is and how many are unread.
 *
 * @example bellLabel(3, t) // 'Notifications, 3 unread'
 */
export function bellLabel(unread: number, t: I18n['t']): string {
  return unread === 0 ? t('notifications.title') : t('notifications.bellUnread', { n: unread });
}

export default function NotificationBell({ userId }: { userId: string }) {
  const [opened, setOpened] = useState(false);
  const headingId = useId();
  const newest = useNewestNotifications(userId);
  useRefreshAfterWrites();
  const unread = newest.data?.unread ?? 0;
  const t = useT();
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={360}
      trapFocus
      returnFocus
      shadow="md"
    >
      <Popover.Target>
        <IconButton
          aria-label={bellLabel(unread, t)}
          aria-haspopup="dialog"
          aria-expanded={opened}
          onClick={() => setOpened((open) => !open)}
          style={{ position: 'relative' }}
        >
          <IconBell size={20} />
          {unread > 0 && (
            // the count is in the button's name; this is its picture
            <span className="nf-bell-count" aria-hidden>
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </IconButton>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-labelledby={headingId}>
        <NotificationList
          headingId={headingId}
          userId={userId}
          unread={unread}
          query={newest}
          close={() => setOpened(false)}
        />
      </Popover.Dropdown>
    </Popover>
  );
}

function NotificationList({
  headingId,
  userId,
  unread,
  query,
  close,
}: {
  headingId: string;
  userId: string;
  unread: number;
  query: ReturnType<typeof useNewestNotifications>;
  close(): void;
}) {
  const markAll = useMarkAllRead(userId);
  const t = useT();
  return (
    <Stack gap={0}>
      <Group justify="space-between" px="md" py="xs">
        <Text fw={600} size="sm" id={headingId}>
          {t('notifications.title')}
        </Text>
        {unread > 0 && (
          <TextButton
            size="xs"
            variant="default"
            onClick={() => markAll.mutate()}
            disabled={markAll.isPending}
          >
            {t('notifications.markAllRead')}
          </TextButton>
        )}
      </Group>
      {query.isPending ? (
        <Text size="sm" c="dimmed" px="md" pb="md">
          {t('common.loading')}
        </Text>
      ) : query.isError ? (
        <Box px="md" pb="md">
          <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
        </Box>
      ) : query.data.items.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="md">
          {t('notifications.empty')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={420} type="auto">
          <ul className="nf-notification-list">
            {query.data.items.map((item) => (
              <li key={item.id}>
                <NotificationItem item={item} userId={userId} close={close} />
              </li>
            ))}
          </ul>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

function NotificationItem({
  item,
  userId,
  close,
}: {
  item: WireNotification;
  userId: string;
  close(): void;
}) {
  const model = useModel();
  const markRead = useMarkRead(userId);
  const t = useT();
  const unread = item.readAt === null;
  const to = detailPath(model, item.entity, item.recordId);
  const open = () => {
    if (unread) markRead.mutate(item);
    if (to !== null) close();
  };
  const body = (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <span className="nf-notification-marker" aria-hidden />
      <Stack gap={2} miw={0}>
        <Text size="sm" fw={unread ? 700 : 400}>
          {unread && <VisuallyHidden>{t('notifications.unreadPrefix')} </VisuallyHidden>}
          {item.subject}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {item.message}
        </Text>
        <Text size="xs" c="dimmed">
          <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, model.product.locale)}</time>
        </Text>
      </Stack>
    </Group>
  );
  const look = { className: 'nf-notification mantine-focus-auto', 'data-unread': unread || undefined };
  return to === null ? (
    <UnstyledButton {...look} onClick={open}>
      {body}
    </UnstyledButton>
  ) : (
    <UnstyledButton {...look} component={Link} to={to} onClick={open}>
      {body}
    </UnstyledButton>
  );
}
