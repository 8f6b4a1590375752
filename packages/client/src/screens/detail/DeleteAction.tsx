import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ApiRecord, type Entity } from '@ninefold/model';
import { IconTrash } from '@tabler/icons-react';
import { localProblem } from '@ninefold/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError, WriteQueued } from '../../api/http';
import { recordKeys, useHeldDelete } from '../../api/records';
import { deleteConsequences, useReferences } from '../../api/references';
import { recordTitle } from '../../api/ref-labels';
import { heldKey, hold, undo } from '../../feedback/held-deletes';
import { TOAST_MS, type ToastHandle, useToasts } from '../../feedback/toasts';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../runtime/messages';
import { detailPath } from '../../runtime/paths';
import { useRuntime } from '../../runtime/runtime';
import { lowerLabel } from './related';

/**
 * Deletes a record after asking. The dialog first asks what refers to the record (decision 0043):
 * a `restrict` ref that holds it is said, and the delete not offered; what `cascade` deletes and
 * `setNull` empties with it is said before the user confirms. A record someone changed meanwhile
 * (E_CONFLICT) is not deleted: the dialog reads it again before letting go, says so and offers to
 * reload it, so that the user decides on what it is now.
 *
 * A confirmed delete is held for its Undo, not sent (decision 0066, update): the record leaves its
 * lists and the page at once, a toast says it is deleted and offers Undo, and the DELETE goes when
 * the toast's time ends (`held-deletes.ts`). Undo sends nothing and shows the record again; a
 * refusal when it is finally sent (someone changed it, the user may no longer) puts it back and
 * says so in a toast that links to it.
 */
export function DeleteAction({
  entity,
  record,
  onDeleted,
  disabled = false,
}: {
  entity: Entity;
  record: ApiRecord;
  onDeleted(): void;
  /** While a change to the record waits in the offline queue. */
  disabled?: boolean;
}) {
  const { model, http, undoMs = TOAST_MS } = useRuntime();
  const t = useT();
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const held = useHeldDelete(entity);
  const toasts = useToasts();
  // before it is held, the record as the server has it now: changed or gone, it is not deleted
  const remove = useMutation({
    mutationFn: async () => {
      try {
        const now = await http.get<ApiRecord>(`${entity.resource}/${encodeURIComponent(record.id)}`);
        if (now.version !== record.version) throw new ApiError(localProblem('E_CONFLICT', 409));
      } catch (e) {
        // unreachable now: the held delete is sent, or queued, when its time comes
        if (!(e instanceof NetworkError)) throw e;
      }
    },
    onSuccess: () => {
      close();
      holdDelete();
      onDeleted();
    },
  });
  const error = remove.error;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 404);
  // what refers to it, asked when the dialog opens: a refusal is said before the user confirms
  const references = useReferences(entity, record.id, opened);
  const consequences =
    references.data === undefined ? null : deleteConsequences(model, entity, references.data);

  /** Hides the record, says so with Undo, and sends the delete when the toast's time ends. */
  function holdDelete() {
    const names = { entity: entity.label, title: recordTitle(entity, record) };
    const path = detailPath(model, entity.name, record.id);
    const link = path === null ? undefined : { to: path, label: names.title };
    const input = { id: record.id, version: record.version };
    const key = heldKey(entity.name, record.id);
    let toast: ToastHandle | null = null;
    held.hide(record.id);
    hold(
      key,
      {
        async send() {
          // sent: too late to undo
          toast?.update({ undo: undefined });
          try {
            await held.send(input);
          } catch (e) {
            toast?.dismiss();
            const queued = e instanceof WriteQueued;
            toasts.show({
              message: queued
                ? t('detail.deleteQueued', { ...names, reason: describeError(model, e).message })
                : t('detail.notDeleted', { ...names, reason: describeError(model, e).message }),
              link,
              tone: queued ? 'success' : 'error',
            });
          }
        },
        leave: () => held.leave(input),
        restore: () => held.restore(),
      },
      undoMs,
    );
    toast = toasts.show({
      message: t('detail.deleted', names),
      undo: {
        label: t('detail.undo'),
        run: () => {
          if (!undo(key)) return Promise.reject(new Error(t('detail.undoTooLate', names)));
          toast?.update({ link });
          return Promise.resolve(t('detail.restored', names));
        },
      },
    });
  }

  function dismiss() {
    close();
    remove.reset();
  }

  function reload() {
    void client.invalidateQueries({ queryKey: recordKeys.all(entity.name) });
    dismiss();
  }

  return (
    <>
      <Button
        color="red"
        variant="subtle"
        size="sm"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={open}
        disabled={disabled}
      >
        {t('detail.delete')}
      </Button>
      <Modal
        opened={opened}
        onClose={dismiss}
        title={t('detail.deleteTitle', { entity: lowerLabel(entity.label, model.product.locale) })}
        centered
      >
        <Stack gap="md">
          <Text>{t('detail.deleteQuestion', { title: recordTitle(entity, record) })}</Text>
          {references.isPending && (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm" c="dimmed">
                {t('detail.checkingReferences')}
              </Text>
            </Group>
          )}
          {consequences?.refusal != null && (
            <Alert color="orange" role="status" data-error-code="E_REFERENCED">
              <Text size="sm">{consequences.refusal}</Text>
            </Alert>
          )}
          {consequences?.refusal == null &&
            consequences?.also.map((sentence) => (
              <Text key={sentence} size="sm" fw={500}>
                {sentence}
              </Text>
            ))}
          {error !== null && (
            <Alert color="red" role="alert" data-error-code={describeError(model, error).code}>
              <Text size="sm">{describeError(model, error).message}</Text>
              {stale && (
                <Button mt="sm" size="xs" variant="default" color="red" onClick={reload}>
                  {t('detail.reload')}
                </Button>
              )}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={dismiss} disabled={remove.isPending}>
              {t('detail.cancel')}
            </Button>
            <Button
              // shade 8 whatever the theme's primary shade: white on red's shade 6 reads at 3.3:1
              color="red.8"
              loading={remove.isPending}
              // refused before it is tried: a restrict ref holds the record (decision 0043)
              disabled={stale || consequences?.refusal != null}
              onClick={() => remove.mutate()}
            >
              {t('detail.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
