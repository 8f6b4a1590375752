/**
 * The transitions a user may fire on a record now, as buttons. The server decides which
 * (`record._actions`); the spec decides how each is asked: a dialog for the fields it requires,
 * a confirmation for its question, or straight away. Failures stay in the dialog, as the
 * catalogue's messages, beside the field they concern. A transition through confirms itself with a
 * toast that links to the record, and offers Undo when the spec lets this user fire the way back
 * (decision 0066).
 */
import { Alert, Button, Group, type MantineSize, Modal, Stack, Text, VisuallyHidden } from '@mantine/core';
import { isEmptyValue } from '@ninefold/engine';
import { type ApiRecord, type Field, type StateMachine, type Transition, type Value } from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, WriteQueued } from '../../api/http';
import { recordKeys, useFireTransition } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { type ToastHandle, useToasts } from '../../feedback/toasts';
import { detailPath } from '../../runtime/paths';
import { FieldInput } from '../../fields/FieldInput';
import { useT } from '../../i18n/I18nProvider';
import { describeError, message } from '../../runtime/messages';
import { useModel } from '../../runtime/runtime';
import { lowerLabel } from './related';

export interface TransitionActionsProps {
  readonly entity: string;
  readonly record: ApiRecord;
  /** Only these transitions, in this order (a screen's `actions`); all of `_actions` without it. */
  readonly names?: readonly string[];
  readonly size?: MantineSize;
  /** While a change to the record waits in the offline queue. */
  readonly disabled?: boolean;
  /** Called with the record as the server returns it after the transition, and the toast that says so. */
  onDone?(record: ApiRecord, toast: ToastHandle): void;
}

/**
 * Buttons for the transitions in `record._actions`, each asking what its transition needs.
 *
 * @example <TransitionActions entity="Claim" record={claim} names={screen.actions} onDone={focusTitle} />
 */
export function TransitionActions({
  entity,
  record,
  names,
  size = 'sm',
  disabled = false,
  onDone,
}: TransitionActionsProps) {
  const model = useModel();
  const t = useT();
  const locale = model.product.locale;
  const machine = model.states[entity];
  const [open, setOpen] = useState<Transition | null>(null);
  const [done, setDone] = useState('');
  const allowed = record._actions ?? [];
  const shown = (names ?? allowed)
    .filter((name) => allowed.includes(name))
    .map((name) => machine?.transitions[name])
    .filter((t): t is Transition => t !== undefined);
  const definition = model.entities[entity] ?? missingEntity(entity);
  const fire = useFireTransition(definition);
  const toasts = useToasts();

  function start(transition: Transition) {
    fire.reset();
    if (transition.require.length > 0 || transition.confirm !== null) setOpen(transition);
    else submit(transition, {});
  }

  function submit(transition: Transition, values: Record<string, Value>) {
    fire.mutate(
      { id: record.id, version: record.version, transition: transition.name, values },
      {
        onSuccess: (next) => {
          setOpen(null);
          const state = next.state === undefined ? null : machine?.states[next.state]?.label;
          setDone(
            state == null
              ? t('detail.transitionDone', { transition: transition.label })
              : t('detail.transitionNow', { transition: transition.label, state }),
          );
          const back = machine === undefined ? undefined : reverseOf(machine, transition, record, next);
          const path = detailPath(model, entity, next.id);
          const toast = toasts.show({
            message:
              state == null || next.state === record.state
                ? t('detail.toastDone', {
                    entity: definition.label,
                    transition: lowerLabel(transition.label, locale),
                  })
                : t('detail.toastMoved', { entity: definition.label, state }),
            link: path === null ? undefined : { to: path, label: recordTitle(definition, next) },
            undo:
              back === undefined
                ? undefined
                : {
                    label: t('detail.undo'),
                    run: async () => {
                      const undone = await fire
                        .mutateAsync({ id: next.id, version: next.version, transition: back.name })
                        .catch((error: unknown) => {
                          throw new Error(
                            t('detail.notUndone', { reason: describeError(model, error).message }),
                          );
                        });
                      const now = undone.state === undefined ? null : machine?.states[undone.state]?.label;
                      return now == null
                        ? t('detail.undone', { transition: back.label })
                        : t('detail.undoneBack', { entity: definition.label, state: now });
                    },
                  },
          });
          onDone?.(next, toast);
        },
        onError: (error) => {
          if (error instanceof WriteQueued) {
            // kept on the device: nothing to fix in the dialog; the record says it waits
            setOpen(null);
            setDone(
              t('detail.transitionQueued', {
                transition: transition.label,
                message: describeError(model, error).message,
              }),
            );
            return;
          }
          // a direct fire that fails opens its dialog, where the error is shown
          setOpen(transition);
        },
      },
    );
  }

  if (shown.length === 0 && open === null) return <LiveStatus text={done} />;
  return (
    <>
      <Group gap="xs" wrap="wrap">
        {shown.map((transition) => (
          <Button
            key={transition.name}
            size={size}
            variant={transition === shown[0] ? 'filled' : 'light'}
            data-transition={transition.name}
            loading={fire.isPending && fire.variables?.transition === transition.name}
            disabled={fire.isPending || disabled}
            onClick={() => start(transition)}
          >
            {transition.label}
          </Button>
        ))}
      </Group>
      <LiveStatus text={done} />
      {open !== null && (
        <TransitionDialog
          key={open.name}
          entity={entity}
          record={record}
          transition={open}
          pending={fire.isPending}
          error={fire.error}
          onSubmit={(values) => submit(open, values)}
          onClose={() => {
            setOpen(null);
            fire.reset();
          }}
        />
      )}
    </>
  );
}

/** What a screen reader announces once a transition is through: the button may be gone by then. */
function LiveStatus({ text }: { text: string }) {
  return (
    <VisuallyHidden role="status" aria-live="polite">
      {text}
    </VisuallyHidden>
  );
}

/**
 * The transition that takes a record back where another one took it from, when the spec lets this
 * user fire it now (the server listed it in `_actions`) and it asks for nothing: that is Undo.
 *
 * @example reverseOf(ticketMachine, hold, before, after)?.name // 'reply', for a role that may reply
 */
export function reverseOf(
  machine: StateMachine,
  done: Transition,
  before: ApiRecord,
  after: ApiRecord,
): Transition | undefined {
  const from = before.state;
  const to = after.state;
  if (typeof from !== 'string' || typeof to !== 'string' || from === to || done.timer !== null)
    return undefined;
  const allowed = after._actions ?? [];
  return Object.values(machine.transitions).find(
    (t) =>
      t.to === from &&
      t.from.includes(to) &&
      t.timer === null &&
      t.require.length === 0 &&
      allowed.includes(t.name),
  );
}

function missingEntity(name: string): never {
  throw new Error(`The model has no entity ${name}.`);
}

/** Asks for the transition's required fields and its question; shows why the server refused. */
function TransitionDialog({
  entity,
  record,
  transition,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  entity: string;
  record: ApiRecord;
  transition: Transition;
  pending: boolean;
  error: unknown;
  onSubmit(values: Record<string, Value>): void;
  onClose(): void;
}) {
  const model = useModel();
  const t = useT();
  const client = useQueryClient();
  const definition = model.entities[entity];
  const fields = transition.require
    .map((name) => definition?.fields[name])
    .filter((f): f is Field => f !== undefined);
  const [values, setValues] = useState<Record<string, Value>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, record[f.name] ?? null])),
  );
  const [missing, setMissing] = useState<Record<string, string>>({});

  const problem = error instanceof ApiError ? error : null;
  const fieldErrors = new Map<string, string>();
  for (const issue of problem?.fieldErrors ?? []) {
    if (issue.field !== null && values[issue.field] !== undefined && !fieldErrors.has(issue.field))
      fieldErrors.set(issue.field, issue.message);
  }
  // what the dialog cannot show beside a field: the problem itself, or its other field errors
  const unplaced = (problem?.fieldErrors ?? []).filter((i) => i.field === null || !fieldErrors.has(i.field));
  const general =
    error === null || error === undefined
      ? null
      : unplaced.length > 0
        ? unplaced.map((i) => i.message).join(' ')
        : fieldErrors.size > 0
          ? null
          : describeError(model, error).message;
  const stale = problem !== null && (problem.status === 409 || problem.status === 404);

  function change(name: string, value: Value) {
    setValues((current) => ({ ...current, [name]: value }));
    setMissing(({ [name]: _cleared, ...rest }) => rest);
  }

  function send(event: FormEvent) {
    event.preventDefault();
    const absent: Record<string, string> = {};
    for (const field of fields) {
      if (isEmptyValue(field, values[field.name]))
        absent[field.name] = message(model, 'E_REQUIRED', { field: field.label });
    }
    setMissing(absent);
    if (Object.keys(absent).length === 0) onSubmit(values);
  }

  function reload() {
    void client.invalidateQueries({ queryKey: recordKeys.all(entity) });
    onClose();
  }

  const question = transition.confirm;
  return (
    <Modal opened onClose={onClose} title={transition.label} centered>
      <form onSubmit={send} noValidate>
        <Stack gap="md">
          {question !== null && <Text>{question}</Text>}
          {general !== null && (
            <Alert
              color="red"
              role="alert"
              data-error-code={problem?.code ?? describeError(model, error).code}
            >
              <Text size="sm">{general}</Text>
              {stale && (
                <Button mt="sm" size="xs" variant="default" color="red" onClick={reload}>
                  {t('detail.reload')}
                </Button>
              )}
            </Alert>
          )}
          {fields.map((field) => (
            <FieldInput
              key={field.name}
              field={field}
              value={values[field.name] ?? null}
              onChange={(value: Value) => change(field.name, value)}
              required
              disabled={pending}
              error={missing[field.name] ?? fieldErrors.get(field.name)}
            />
          ))}
          <Group justify="flex-end" gap="xs">
            {/* not "Cancel": a transition may well be called that (bookings' is) */}
            <Button variant="default" onClick={onClose} disabled={pending}>
              {t('detail.notNow')}
            </Button>
            <Button type="submit" loading={pending} disabled={stale}>
              {transition.label}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
