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

/** The signed-in user's queue, re-rendering when it changes; no key when the model queues nothing. */
export function useUserQueue(): { key: QueueKey | null; writes: readonly QueuedWrite[] } {
  const model = useModel();
  const { data: user } = useSession();
  const key = model.calls.offlineQueue && user != null ? queueKey(model, user.id) : null;
  return { key, writes: useQueue(key) };
}

/** What a write does, in a few words: "New claim “Taxi”", "Changes to claim “Taxi” (Title)", "Submit: claim “Taxi”". */
export function writeSummary(model: Model, write: QueuedWrite): string {
  const entity = model.entities[write.entity];
  // "Claim" → "claim", but "API key" stays as it is
  const word = entity?.label ?? write.entity;
  const label = /^[A-Z][a-z]/.test(word) ? word.charAt(0).toLowerCase() + word.slice(1) : word;
  const name = write.title === '' ? '' : ` “${write.title}”`;
  switch (write.kind) {
    case 'create':
      return `New ${label}${name}`;
    case 'update': {
      // which fields: the record's page shows the values the server has, not these yet
      const fields = Object.keys(write.body ?? {}).map((f) => entity?.fields[f]?.label ?? f);
      return `Changes to ${label}${name}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
    }
    case 'delete':
      return `Delete ${label}${name}`;
    case 'transition': {
      const transition = model.states[write.entity]?.transitions[write.transition ?? ''];
      return `${transition?.label ?? write.transition ?? ''}: ${label}${name}`;
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
  const [confirming, setConfirming] = useState(false);
  const summary = writeSummary(model, write);
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
              Waiting to be sent
            </Badge>
          ) : (
            <Badge color="red" variant="light">
              Not sent
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          Saved on this device{' '}
          <time dateTime={write.at}>{formatDateTime(write.at, model.product.locale)}</time>
        </Text>
        {refusal !== null && (
          <Text size="sm" c="red.8" data-error-code={refusal.code}>
            {refusal.message}
          </Text>
        )}
        {confirming ? (
          <Group gap="xs" role="group" aria-label={`Discard ${summary}?`}>
            <Text size="sm">Discard this change? It will not be sent.</Text>
            <Button size="xs" color="red.8" onClick={() => removeWrite(queue, write.key)}>
              Discard
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </Group>
        ) : (
          <Group gap="xs">
            {fix !== null && (
              <Button size="xs" variant="light" onClick={() => go(fix, { offlineDraft: write.key })}>
                Fix and send
              </Button>
            )}
            {open !== null && (
              <Button size="xs" variant="default" onClick={() => go(open)}>
                Open
              </Button>
            )}
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Discard: ${summary}`}
              onClick={() => setConfirming(true)}
            >
              Discard
            </Button>
          </Group>
        )}
      </Stack>
    </li>
  );
}
