/**
 * `/admin/invitations`, for those who may create users: every invitation with its state (waiting,
 * accepted, revoked, expired), newest first. A waiting or expired one can be sent again (a new link;
 * the old one stops working), shown once to copy when the server sends no mail; a waiting one can
 * be revoked after a confirmation.
 */
import '../styles/identity';
import { Alert, Badge, Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { type InvitationAnswer, type InvitationState, type WireInvitation } from '@ninefold/model';
import { useState } from 'react';
import { AdminFrame } from '../admin/AdminFrame';
import { Loading } from '../admin/Loading';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { SecretOnce } from './SecretOnce';
import { useInvitations, useResendInvitation, useRevokeInvitation } from './identity-api';
import { useT } from '../i18n/I18nProvider';
import { type MessageKey } from '../i18n/catalogue';

const STATE_LABELS: Readonly<Record<InvitationState, MessageKey>> = {
  pending: 'identity.invitations.state.pending',
  accepted: 'identity.invitations.state.accepted',
  revoked: 'identity.invitations.state.revoked',
  expired: 'identity.invitations.state.expired',
};

const STATE_COLORS: Readonly<Record<InvitationState, string>> = {
  pending: 'blue',
  accepted: 'green',
  revoked: 'gray',
  expired: 'orange',
};

export default function InvitationsPage() {
  const t = useT();
  return (
    <AdminFrame title={t('identity.invitations.title')}>
      <Invitations />
    </AdminFrame>
  );
}

function Invitations() {
  const t = useT();
  const model = useModel();
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [answer, setAnswer] = useState<InvitationAnswer | null>(null);
  const [revoking, setRevoking] = useState<WireInvitation | null>(null);
  const locale = model.product.locale;
  const failure = resend.error ?? revoke.error;
  return (
    <>
      <Text size="sm" c="dimmed">
        {t('identity.invitations.intro')}
      </Text>
      {failure !== null && (
        <Alert color="red" role="alert" title={t('identity.invitations.notDone')}>
          {describeError(model, failure).message}
        </Alert>
      )}
      {answer !== null && answer.mailed && (
        <Alert color="green" variant="light" role="status" withCloseButton onClose={() => setAnswer(null)}>
          {t('identity.invitations.resentMailed').replace('{email}', answer.email)}
        </Alert>
      )}
      {invitations.isPending ? (
        <Loading />
      ) : invitations.isError ? (
        <ErrorPanel error={invitations.error} onRetry={() => void invitations.refetch()} />
      ) : invitations.data.length === 0 ? (
        <Text c="dimmed">{t('identity.invitations.none')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('identity.invitations.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('identity.invitations.person')}</Table.Th>
                <Table.Th>{t('identity.invitations.state')}</Table.Th>
                <Table.Th>{t('identity.invitations.sent')}</Table.Th>
                <Table.Th>{t('identity.invitations.expires')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('identity.invitations.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.data.map((invitation) => (
                <Table.Tr key={invitation.id} data-testid="invitation-row">
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {invitation.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {invitation.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATE_COLORS[invitation.state]}>
                      {t(STATE_LABELS[invitation.state])}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(invitation.createdAt, locale)}</Table.Td>
                  <Table.Td>
                    {invitation.state === 'accepted' && invitation.acceptedAt !== null
                      ? `${t('identity.invitations.accepted')} ${formatDateTime(invitation.acceptedAt, locale)}`
                      : formatDateTime(invitation.expiresAt, locale)}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {(invitation.state === 'pending' || invitation.state === 'expired') && (
                        <Button
                          size="xs"
                          variant="default"
                          loading={resend.isPending && resend.variables === invitation.user}
                          onClick={() => resend.mutate(invitation.user, { onSuccess: setAnswer })}
                          aria-label={`${t('identity.invitations.resend')}: ${invitation.email}`}
                        >
                          {t('identity.invitations.resend')}
                        </Button>
                      )}
                      {invitation.state === 'pending' && (
                        <Button
                          size="xs"
                          variant="default"
                          color="red"
                          onClick={() => setRevoking(invitation)}
                          aria-label={`${t('identity.invitations.revoke')}: ${invitation.email}`}
                        >
                          {t('identity.invitations.revoke')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={answer !== null && !answer.mailed && answer.link !== null}
        onClose={() => setAnswer(null)}
        title={t('identity.invitations.linkTitle')}
        size="lg"
      >
        {answer?.link != null && (
          <Stack>
            <Text size="sm">{t('identity.invitations.link').replace('{email}', answer.email)}</Text>
            <SecretOnce
              label={t('identity.invitations.linkLabel')}
              value={answer.link}
              warning={t('identity.invitations.warning')}
            />
            <Group justify="flex-end">
              <Button onClick={() => setAnswer(null)}>{t('common.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('identity.invitations.revokeTitle')}
      >
        <Stack>
          <Text size="sm">
            {t('identity.invitations.revokeText').replace('{email}', revoking?.email ?? '')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red.8"
              loading={revoke.isPending}
              onClick={() => {
                if (revoking !== null) revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
              }}
            >
              {t('identity.invitations.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
