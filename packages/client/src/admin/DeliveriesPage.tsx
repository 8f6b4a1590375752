/**
 * The webhook deliveries for admins: each event posted to a webhook, newest first, with its state,
 * attempts and the receiver's last answer (its status, or why there was none). Any delivery can be
 * sent again — after a receiver was fixed, say; the server queues it as a new attempt.
 */
import { Alert, Badge, Table, Text, VisuallyHidden } from '@mantine/core';
import { type DeliveryState, type WireDelivery } from '@ninefold/model';
import { ErrorPanel } from '../components/ErrorPanel';
import { TextButton } from '../components/buttons';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { Loading } from './Loading';
import { AdminFrame } from './AdminFrame';
import { useDeliveries, useResendDelivery } from './admin-api';

const STATE_LABELS: Readonly<Record<DeliveryState, string>> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

const STATE_COLORS: Readonly<Record<DeliveryState, string>> = {
  pending: 'blue',
  delivered: 'green',
  failed: 'red',
};

export default function DeliveriesPage() {
  return (
    <AdminFrame title="Webhook deliveries">
      <Deliveries />
    </AdminFrame>
  );
}

function Deliveries() {
  const model = useModel();
  const deliveries = useDeliveries();
  const resend = useResendDelivery();
  if (deliveries.isPending) return <Loading />;
  if (deliveries.isError)
    return <ErrorPanel error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  return (
    <>
      {resend.isError && (
        <Alert color="red" role="alert" title="The delivery was not sent again">
          {describeError(model, resend.error).message}
        </Alert>
      )}
      {resend.isSuccess && (
        <Text size="sm" role="status">
          Queued to be sent again.
        </Text>
      )}
      {deliveries.data.length === 0 ? (
        <Text c="dimmed">No deliveries yet.</Text>
      ) : (
        <DeliveriesTable
          deliveries={deliveries.data}
          locale={model.product.locale}
          sending={resend.isPending ? resend.variables : null}
          onResend={(id) => resend.mutate(id)}
        />
      )}
    </>
  );
}

function DeliveriesTable({
  deliveries,
  locale,
  sending,
  onResend,
}: {
  deliveries: readonly WireDelivery[];
  locale: string;
  sending: string | null;
  onResend(id: string): void;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label="Webhook deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Webhook</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Last answer</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((delivery) => (
            <Table.Tr key={delivery.id} data-delivery-id={delivery.id}>
              <Table.Td>{delivery.webhook}</Table.Td>
              <Table.Td>{delivery.event}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATE_COLORS[delivery.state]}>
                  {STATE_LABELS[delivery.state]}
                </Badge>
              </Table.Td>
              <Table.Td>{delivery.attempts}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {[delivery.lastStatus, delivery.lastAnswer].filter((part) => part !== null).join(' · ')}
                </Text>
              </Table.Td>
              <Table.Td>{formatDateTime(delivery.updatedAt, locale)}</Table.Td>
              <Table.Td>
                <TextButton
                  size="xs"
                  variant="default"
                  disabled={sending === delivery.id}
                  onClick={() => onResend(delivery.id)}
                >
                  Resend
                </TextButton>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
