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
import { useT } from '../i18n/I18nProvider';
import { type MessageKey } from '../i18n/catalogue';
import { Loading } from './Loading';
import { AdminFrame } from './AdminFrame';
import { useDeliveries, useResendDelivery } from './admin-api';

const STATE_LABELS: Readonly<Record<DeliveryState, MessageKey>> = {
  pending: 'admin.delivery.pending',
  delivered: 'admin.delivery.delivered',
  failed: 'admin.delivery.failed',
};

const STATE_COLORS: Readonly<Record<DeliveryState, string>> = {
  pending: 'blue',
  delivered: 'green',
  failed: 'red',
};

export default function DeliveriesPage() {
  const t = useT();
  return (
    <AdminFrame title={t('admin.webhooks')}>
      <Deliveries />
    </AdminFrame>
  );
}

function Deliveries() {
  const t = useT();
  const model = useModel();
  const deliveries = useDeliveries();
  const resend = useResendDelivery();
  if (deliveries.isPending) return <Loading />;
  if (deliveries.isError)
    return <ErrorPanel error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  return (
    <>
      {resend.isError && (
        <Alert color="red" role="alert" title={t('admin.delivery.resendFailed')}>
          {describeError(model, resend.error).message}
        </Alert>
      )}
      {resend.isSuccess && (
        <Text size="sm" role="status">
          {t('admin.delivery.queued')}
        </Text>
      )}
      {deliveries.data.length === 0 ? (
        <Text c="dimmed">{t('admin.delivery.none')}</Text>
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
  const t = useT();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label={t('admin.webhooks')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.delivery.webhook')}</Table.Th>
            <Table.Th>{t('admin.delivery.event')}</Table.Th>
            <Table.Th>{t('admin.state')}</Table.Th>
            <Table.Th>{t('admin.attempts')}</Table.Th>
            <Table.Th>{t('admin.delivery.lastAnswer')}</Table.Th>
            <Table.Th>{t('admin.delivery.updated')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('admin.actions')}</VisuallyHidden>
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
                  {t(STATE_LABELS[delivery.state])}
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
                  {t('admin.delivery.resend')}
                </TextButton>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
