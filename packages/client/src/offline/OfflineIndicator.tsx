/**
 * The offline queue in the shell: it replays the signed-in user's queue (at start-up, when the
 * connection returns, and on a retry that backs off), and says — in a live region — whether the
 * browser is offline and how many changes wait on this device; its button opens the queue. Its own
 * chunk, loaded after the first paint, like the user's menu.
 */
import { type SessionUser } from '@ninefold/model';
import { Button, Drawer, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconCloudOff, IconCloudUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { forgetRecordOf, settleWrite } from '../api/records';
import { SESSION_KEY } from '../auth/session';
import { useRuntime } from '../runtime/runtime';
import { PendingWrites } from './PendingWrites';
import { isWaiting, queueKey, useQueue } from './queue';
import { type ReplayOutcome, type Replayer, startReplayer } from './replay';
import { useI18n } from '../i18n/I18nProvider';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}
const onlineNow = () => navigator.onLine;

/** Whether the browser says it is online; it learns of a lost connection before any request fails. */
function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, onlineNow, () => true);
}

export default function OfflineIndicator({ userId }: { userId: string }) {
  const { model, http } = useRuntime();
  const { t, dir } = useI18n();
  const client = useQueryClient();
  const key = queueKey(model, userId);
  const writes = useQueue(key);
  const online = useOnline();
  const [outcome, setOutcome] = useState<ReplayOutcome>('done');
  const [opened, { open, close }] = useDisclosure(false);
  const replayer = useRef<Replayer | null>(null);
  const lastOutcome = useRef(outcome);

  useEffect(() => {
    const started = startReplayer({
      http,
      key,
      userId,
      signedIn: () => client.getQueryData<SessionUser | null>(SESSION_KEY)?.id === userId,
      onSent: (write, answer) => settleWrite(client, model, write, answer),
      onRefused: (write) => forgetRecordOf(client, write),
      // a render only when it changes: most replays find nothing to send
      onOutcome: (next) => {
        if (lastOutcome.current === next) return;
        lastOutcome.current = next;
        setOutcome(next);
      },
    });
    replayer.current = started;
    return () => {
      started.stop();
      replayer.current = null;
    };
  }, [http, key, userId, client, model]);

  const waiting = writes.filter(isWaiting).length;
  const refused = writes.length - waiting;
  const unreachable = !online || (waiting > 0 && outcome === 'unreachable');
  const said = [
    !online ? t('offline.offlineSentence') : unreachable ? t('offline.unreachable') : '',
    waiting > 0 ? t('offline.waitingSentence', { n: waiting }) : '',
    refused > 0 ? t('offline.refusedSentence', { n: refused }) : '',
  ]
    .filter((s) => s !== '')
    .join(' ');
  const shown = !online || writes.length > 0;
  const label =
    refused > 0
      ? t('offline.notSentCount', { n: refused })
      : waiting > 0
        ? t('offline.waitingCount', { n: waiting })
        : t('offline.offline');
  const Icon = refused > 0 ? IconAlertTriangle : unreachable ? IconCloudOff : IconCloudUpload;

  return (
    <>
      {/* always in the page, so that a screen reader hears it change */}
      <VisuallyHidden role="status" aria-live="polite" data-testid="offline-status">
        {said}
      </VisuallyHidden>
      {shown && (
        <Button
          size="xs"
          variant="light"
          color={refused > 0 ? 'red' : unreachable ? 'gray' : 'blue'}
          leftSection={<Icon size={16} aria-hidden />}
          onClick={open}
          aria-label={t('offline.indicatorLabel', { status: said })}
          aria-haspopup="dialog"
          data-offline={!online || undefined}
        >
          {label}
        </Button>
      )}
      {/* mounted only while open: a closed Drawer still re-renders its transition and scroll-lock machinery
          with every navigation of the shell */}
      {opened && (
        <Drawer
          opened
          onClose={close}
          position={dir === 'rtl' ? 'left' : 'right'}
          title={t('offline.drawerTitle')}
        >
          <Stack gap="md">
            <Text size="sm">
              {writes.length === 0 ? t('offline.nothingWaits') : t('offline.explanation')}
            </Text>
            {!online && (
              <Text size="sm" fw={600}>
                {t('offline.youAreOffline')}
              </Text>
            )}
            {writes.length > 0 && <PendingWrites queue={key} writes={writes} onNavigate={close} />}
            {waiting > 0 && (
              <Group>
                <Button size="xs" variant="default" onClick={() => replayer.current?.now()}>
                  {t('offline.sendNow')}
                </Button>
              </Group>
            )}
          </Stack>
        </Drawer>
      )}
    </>
  );
}
