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

const TEXT = {
  title: 'Invitations',
  intro:
    'Everyone created in the app or with “ninefold users” gets an invitation to set a password. It works for 7 days.',
  none: 'No invitations yet.',
  person: 'Person',
  state: 'State',
  sent: 'Sent',
  expires: 'Expires',
  accepted: 'Accepted',
  actions: 'Actions',
  resend: 'Send again',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this invitation?',
  revokeText: 'The link sent to {email} stops working. You can send a new one later.',
  cancel: 'Cancel',
  resentMailed: 'A new invitation is on its way to {email}. The earlier link no longer works.',
  linkTitle: 'New invitation link',
  link: 'This server sends no mail: give this link to {email} yourself. The earlier link no longer works.',
  linkLabel: 'Invitation link',
  warning: 'Copy the link now: it is shown only this once.',
  done: 'Done',
  notDone: 'That did not work',
} as const;

const STATE_LABELS: Readonly<Record<InvitationState, string>> = {
  pending: 'Waiting',
  accepted: 'Accepted',
  revoked: 'Revoked',
  expired: 'Expired',
};

const STATE_COLORS: Readonly<Record<InvitationState, string>> = {
  pending: 'blue',
  accepted: 'green',
  revoked: 'gray',
  expired: 'orange',
};

export default function InvitationsPage() {
  return (
    <AdminFrame title={TEXT.title}>
      <Invitations />
    </AdminFrame>
  );
}

function Invitations() {
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
        {TEXT.intro}
      </Text>
      {failure !== null && (
        <Alert color="red" role="alert" title={TEXT.notDone}>
          {describeError(model, failure).message}
        </Alert>
      )}
      {answer !== null && answer.mailed && (
        <Alert color="green" variant="light" role="status" withCloseButton onClose={() => setAnswer(null)}>
          {TEXT.resentMailed.replace('{email}', answer.email)}
        </Alert>
      )}
      {invitations.isPending ? (
        <Loading />
      ) : invitations.isError ? (
        <ErrorPanel error={invitations.error} onRetry={() => void invitations.refetch()} />
      ) : invitations.data.length === 0 ? (
        <Text c="dimmed">{TEXT.none}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={TEXT.title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{TEXT.person}</Table.Th>
                <Table.Th>{TEXT.state}</Table.Th>
                <Table.Th>{TEXT.sent}</Table.Th>
                <Table.Th>{TEXT.expires}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{TEXT.actions}</VisuallyHidden>
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
                      {STATE_LABELS[invitation.state]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(invitation.createdAt, locale)}</Table.Td>
                  <Table.Td>
                    {invitation.state === 'accepted' && invitation.acceptedAt !== null
                      ? `${TEXT.accepted} ${formatDateTime(invitation.acceptedAt, locale)}`
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
                          aria-label={`${TEXT.resend}: ${invitation.email}`}
                        >
                          {TEXT.resend}
                        </Button>
                      )}
                      {invitation.state === 'pending' && (
                        <Button
                          size="xs"
                          variant="default"
                          color="red"
                          onClick={() => setRevoking(invitation)}
                          aria-label={`${TEXT.revoke}: ${invitation.email}`}
                        >
                          {TEXT.revoke}
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
        title={TEXT.linkTitle}
        size="lg"
      >
        {answer?.link != null && (
          <Stack>
            <Text size="sm">{TEXT.link.replace('{email}', answer.email)}</Text>
            <SecretOnce label={TEXT.linkLabel} value={answer.link} warning={TEXT.warning} />
            <Group justify="flex-end">
              <Button onClick={() => setAnswer(null)}>{TEXT.done}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title={TEXT.revokeTitle}>
        <Stack>
          <Text size="sm">{TEXT.revokeText.replace('{email}', revoking?.email ?? '')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {TEXT.cancel}
            </Button>
            <Button
              color="red.8"
              loading={revoke.isPending}
              onClick={() => {
                if (revoking !== null) revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
              }}
            >
              {TEXT.revoke}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
