import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ApiRecord, type Entity } from '@ninefold/model';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, WriteQueued } from '../../api/http';
import { recordKeys, useDeleteRecord } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { describeError } from '../../runtime/messages';
import { useModel } from '../../runtime/runtime';

/**
 * Deletes a record after asking. A record someone changed meanwhile (E_CONFLICT) is not deleted:
 * the dialog says so and offers to reload it, so that the user decides on what it is now.
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
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const remove = useDeleteRecord(entity);
  // a delete kept in the offline queue closes the dialog: the record says it waits
  const error = remove.error instanceof WriteQueued ? null : remove.error;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 404);

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
        Delete
      </Button>
      <Modal opened={opened} onClose={dismiss} title={`Delete ${entity.label.toLowerCase()}`} centered>
        <Stack gap="md">
          <Text>Delete “{recordTitle(entity, record)}”? This cannot be undone.</Text>
          {error !== null && (
            <Alert color="red" role="alert" data-error-code={describeError(model, error).code}>
              <Text size="sm">{describeError(model, error).message}</Text>
              {stale && (
                <Button mt="sm" size="xs" variant="default" color="red" onClick={reload}>
                  Reload
                </Button>
              )}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={dismiss} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button
              // shade 8 whatever the theme's primary shade: white on red's shade 6 reads at 3.3:1
              color="red.8"
              loading={remove.isPending}
              disabled={stale}
              onClick={() =>
                remove.mutate(
                  { id: record.id, version: record.version },
                  {
                    onSuccess: onDeleted,
                    onError: (e) => {
                      if (e instanceof WriteQueued) close();
                    },
                  },
                )
              }
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
