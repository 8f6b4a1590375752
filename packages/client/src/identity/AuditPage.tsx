/**
 * `/admin/audit`, for admins: the identity audit trail, newest first — who signed in or failed to,
 * who was invited, who reset a password or made a token, when and from where — filtered by kind
 * (kept in the address, so that a link or a reload shows the same).
 */
import '../styles/identity';
import { Select, Table, Text } from '@mantine/core';
import { AUTH_EVENT_KINDS, type AuthEventKind } from '@ninefold/model';
import { useSearchParams } from 'react-router';
import { AdminFrame } from '../admin/AdminFrame';
import { Loading } from '../admin/Loading';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { useModel } from '../runtime/runtime';
import { browserName } from './sessions-text';
import { useAuthEvents } from './identity-api';

const TEXT = {
  title: 'Audit trail',
  kind: 'Kind',
  all: 'All kinds',
  none: 'Nothing recorded yet.',
  noneOfKind: 'Nothing of this kind recorded.',
  when: 'When',
  what: 'What',
  who: 'Who',
  by: 'Done by',
  from: 'From',
  detail: 'Detail',
  self: 'Themselves',
} as const;

/** Each kind of event as people read it. */
export const KIND_LABELS: Readonly<Record<AuthEventKind, string>> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in failed',
  'sign-out': 'Signed out',
  'session-ended': 'Session ended',
  'invitation-created': 'Invitation sent',
  'invitation-revoked': 'Invitation revoked',
  'invitation-accepted': 'Invitation accepted',
  'sign-up-requested': 'Sign-up asked for',
  'sign-up-verified': 'Sign-up confirmed',
  'password-reset-requested': 'Password reset asked for',
  'password-reset-completed': 'Password reset',
  'password-changed': 'Password changed',
  'token-created': 'API token created',
  'token-revoked': 'API token revoked',
  'sso-sign-in': 'Signed in with single sign-on',
  'sso-linked': 'Single sign-on linked',
  'sso-failed': 'Single sign-on failed',
  'mfa-enabled': 'Two-step sign-in turned on',
  'mfa-disabled': 'Two-step sign-in turned off',
  'mfa-failed': 'Wrong sign-in code',
  'recovery-codes-replaced': 'Recovery codes replaced',
  'sessions-ended-by-admin': 'Sessions ended by an admin',
  'email-changed': 'E-mail changed',
};

const ALL = 'all';

function kindOf(param: string | null): AuthEventKind | null {
  return AUTH_EVENT_KINDS.find((kind) => kind === param) ?? null;
}

export default function AuditPage() {
  return (
    <AdminFrame title={TEXT.title}>
      <Events />
    </AdminFrame>
  );
}

function Events() {
  const model = useModel();
  const [params, setParams] = useSearchParams();
  const kind = kindOf(params.get('kind'));
  const events = useAuthEvents(kind);
  const locale = model.product.locale;
  const filter = (value: string | null) =>
    setParams(value === null || value === ALL ? {} : { kind: value }, {
      replace: true,
      preventScrollReset: true,
    });
  return (
    <>
      <Select
        label={TEXT.kind}
        value={kind ?? ALL}
        onChange={filter}
        allowDeselect={false}
        data={[
          { value: ALL, label: TEXT.all },
          ...AUTH_EVENT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })),
        ]}
        maw={320}
      />
      {events.isPending ? (
        <Loading />
      ) : events.isError ? (
        <ErrorPanel error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.length === 0 ? (
        <Text c="dimmed">{kind === null ? TEXT.none : TEXT.noneOfKind}</Text>
      ) : (
        <Table.ScrollContainer minWidth={880}>
          <Table striped aria-label={TEXT.title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{TEXT.when}</Table.Th>
                <Table.Th>{TEXT.what}</Table.Th>
                <Table.Th>{TEXT.who}</Table.Th>
                <Table.Th>{TEXT.by}</Table.Th>
                <Table.Th>{TEXT.from}</Table.Th>
                <Table.Th>{TEXT.detail}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.map((event) => (
                <Table.Tr key={event.id} data-kind={event.kind}>
                  <Table.Td>{formatDateTime(event.at, locale)}</Table.Td>
                  <Table.Td>{KIND_LABELS[event.kind] ?? event.kind}</Table.Td>
                  <Table.Td>{event.email ?? event.userId ?? ''}</Table.Td>
                  <Table.Td>{event.actorId ?? TEXT.self}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{event.address ?? ''}</Text>
                    {event.userAgent !== null && (
                      <Text size="xs" c="dimmed">
                        {browserName(event.userAgent)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {event.detail === null
                        ? ''
                        : Object.entries(event.detail)
                            .map(([key, value]) => `${key}: ${value}`)
                            .join('; ')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
