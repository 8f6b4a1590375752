/**
 * The writes waiting on this device, as the user sees them wherever they are shown (the shell's
 * queue, a list, a record): what each does to which record, whether it waits for the network or
 * for the user (with the catalogue message of the server's refusal), and what the user may do —
 * open or fix it, or discard it after saying so.
 */
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { Model } from '@ninefold/model';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { formatDateTime } from '../format/values';
import { message } from '../runtime/messages';
import { createPath, detailPath, editPath } from '../runtime/paths';
import { useModel } from '../runtime/runtime';
import { type QueueKey, type QueuedWrite, isWaiting, queueKey, removeWrite, useQueue } from './queue';
import { type I18n } from '../i18n/i18n';
import { useI18n } from '../i18n/I18nProvider';

/** The signed-in user's queue, re-rendering when it changes; no key when the model queues nothing. */
export function useUserQueue(): { key: QueueKey | null; writes: readonly QueuedWrite[] } {
  const model = useModel();
  const { data: user } = useSession();
  const key = model.calls.offlineQueue && user != null ? queueKey(model, user.id) : null;
  return { key, writes: useQueue(key) };
}

/**
 * What a write does, in a few words, in the reader's language: "New claim “Taxi”", "Changes to claim
 * “Taxi” (Title)", "Submit: claim “Taxi”".
 *
 * @example writeSummary(model, write, i18n) // 'New claim “Taxi”'
 */
export function writeSummary(model: Model, write: QueuedWrite, i18n: Pick<I18n, 't' | 'language'>): string {
  const entity = model.entities[write.entity];
  // English says "New claim": "Claim" → "claim", but "API key" stays as it is; the other languages
  // put the label after a colon ("Création : Demande"), where it keeps its capital (and German its nouns')
  const word = entity?.label ?? write.entity;
  const label =
    i18n.language === 'en' && /^[A-Z][a-z]/.test(word) ? word.charAt(0).toLowerCase() + word.slice(1) : word;
  const subject = write.title === '' ? label : `${label} “${write.title}”`;
  const { t } = i18n;
  switch (write.kind) {
    case 'create':
      return t('offline.summaryCreate', { subject });
    case 'update': {
      // which fields: the record's page shows the values the server has, not these yet
      const fields = Object.keys(write.body ?? {}).map((f) => entity?.fields[f]?.label ?? f);
      return fields.length > 0
        ? t('offline.summaryUpdateFields', {
            subject,
            fields: new Intl.ListFormat(model.product.locale, { type: 'unit' }).format(fields),
          })
        : t('offline.summaryUpdate', { subject });
    }
    case 'delete':
      return t('offline.summaryDelete', { subject });
    case 'transition': {
      const transition = model.states[write.entity]?.transitions[write.transition ?? ''];
      return t('offline.summaryTransition', { action: transition?.label ?? write.transition ?? '', subject });
    }
  }
}

/** The catalogue message of a refused write: the server's words, else the model's template. */
export function refusalOf(model: Model, write: QueuedWrite): { code: string; message: string } | null {
  const problem = write.problem;
  if (problem === undefined) return null;
  const lines = [problem.message || message(model, problem.code)];
  for (const issue of problem.errors ?? []) if (!lines.includes(issue.message)) lines.push(issue.message);
  return { code: problem.code, message: lines.join(' ') };
}

/** Where the user fixes a refused write: its form, with their values (location state `offlineDraft`). */
function fixPath(model: Model, write: QueuedWrite): string | null {
  if (write.problem === undefined) return null;
  if (write.kind === 'create') return createPath(model, write.entity);
  if (write.kind === 'update' && write.recordId !== null)
    return editPath(model, write.entity, write.recordId);
  return null;
}

/**
 * Writes of the queue, one item each; `showRecordLink` offers "Open" for writes to an existing record.
 *
 * @example <PendingWrites queue={key} writes={writesOf(writes, record.id)} />
 */
export function PendingWrites({
  queue,
  writes,
  showRecordLink = true,
  onNavigate,
}: {
  queue: QueueKey;
  writes: readonly QueuedWrite[];
  showRecordLink?: boolean;
  /** Called before the app goes to a write's record or form (a drawer closes itself). */
  onNavigate?: () => void;
}) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {writes.map((write) => (
        <WriteItem
          key={write.key}
          queue={queue}
          write={write}
          showRecordLink={showRecordLink}
          onNavigate={onNavigate}
        />
      ))}
    </Stack>
  );
}

function WriteItem({
  queue,
  write,
  showRecordLink,
  onNavigate,
}: {
  queue: QueueKey;
  write: QueuedWrite;
  showRecordLink: boolean;
  onNavigate: (() => void) | undefined;
}) {
  const model = useModel();
  const navigate = useNavigate();
  const i18n = useI18n();
  const { t } = i18n;
  const [confirming, setConfirming] = useState(false);
  const summary = writeSummary(model, write, i18n);
  const refusal = refusalOf(model, write);
  const fix = fixPath(model, write);
  const open =
    showRecordLink && write.recordId !== null && write.kind !== 'delete'
      ? detailPath(model, write.entity, write.recordId)
      : null;
  const go = (path: string, state?: unknown) => {
    onNavigate?.();
    void navigate(path, state === undefined ? {} : { state });
  };
  return (
    <li data-queued-write={write.key} data-waiting={isWaiting(write) || undefined}>
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap" justify="space-between">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {summary}
          </Text>
          {refusal === null ? (
            <Badge color="blue" variant="light">
              {t('offline.waitingBadge')}
            </Badge>
          ) : (
            <Badge color="red" variant="light">
              {t('offline.notSentBadge')}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('offline.savedOnDevice', { time: formatDateTime(write.at, model.product.locale) })}
        </Text>
        {refusal !== null && (
          <Text size="sm" c="red.8" data-error-code={refusal.code}>
            {refusal.message}
          </Text>
        )}
        {confirming ? (
          <Group gap="xs" role="group" aria-label={t('offline.discardQuestion', { summary })}>
            <Text size="sm">{t('offline.discardConfirm')}</Text>
            <Button size="xs" color="red.8" onClick={() => removeWrite(queue, write.key)}>
              {t('offline.discard')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              {t('offline.keep')}
            </Button>
          </Group>
        ) : (
          <Group gap="xs">
            {fix !== null && (
              <Button size="xs" variant="light" onClick={() => go(fix, { offlineDraft: write.key })}>
                {t('offline.fixAndSend')}
              </Button>
            )}
            {open !== null && (
              <Button size="xs" variant="default" onClick={() => go(open)}>
                {t('common.open')}
              </Button>
            )}
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={t('offline.discardLabel', { summary })}
              onClick={() => setConfirming(true)}
            >
              {t('offline.discard')}
            </Button>
          </Group>
        )}
      </Stack>
    </li>
  );
}
