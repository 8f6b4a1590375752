import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ApiRecord, type Entity } from '@ninefold/model';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, WriteQueued } from '../../api/http';
import { recordKeys, useDeleteRecord } from '../../api/records';
import { deleteConsequences, useReferences } from '../../api/references';
import { recordTitle } from '../../api/ref-labels';
import { useToasts } from '../../feedback/toasts';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../runtime/messages';
import { useModel } from '../../runtime/runtime';
import { lowerLabel } from './related';

/**
 * Deletes a record after asking. The dialog first asks what refers to the record (decision 0043):
 * a `restrict` ref that holds it is said, and the delete not offered; what `cascade` deletes and
 * `setNull` empties with it is said before the user confirms. A record someone changed meanwhile
 * (E_CONFLICT) is not deleted: the dialog says so and offers to reload it, so that the user decides
 * on what it is now. A delete through says so in a toast, without a link (the record is gone) and
 * without Undo: the server keeps no deleted record to restore (decision 0066).
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
  const model = useModel();
  const t = useT();
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const remove = useDeleteRecord(entity);
  const toasts = useToasts();
  // a delete kept in the offline queue closes the dialog: the record says it waits
  const error = remove.error instanceof WriteQueued ? null : remove.error;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 404);
  // what refers to it, asked when the dialog opens: a refusal is said before the user confirms
  const references = useReferences(entity, record.id, opened);
  const consequences =
    references.data === undefined ? null : deleteConsequences(model, entity, references.data);

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
              onClick={() =>
                remove.mutate(
                  { id: record.id, version: record.version },
                  {
                    onSuccess: () => {
                      toasts.show({
                        message: t('detail.deleted', {
                          entity: entity.label,
                          title: recordTitle(entity, record),
                        }),
                      });
                      onDeleted();
                    },
                    onError: (e) => {
                      if (e instanceof WriteQueued) close();
                    },
                  },
                )
              }
            >
              {t('detail.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
