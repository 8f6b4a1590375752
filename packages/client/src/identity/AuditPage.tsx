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
import { useT } from '../i18n/I18nProvider';
import { type MessageKey } from '../i18n/catalogue';

/** Each kind of event as people read it. */
export const KIND_LABELS: Readonly<Record<AuthEventKind, MessageKey>> = {
  'sign-in': 'identity.audit.kind.signIn',
  'sign-in-failed': 'identity.audit.kind.signInFailed',
  'sign-out': 'identity.audit.kind.signOut',
  'session-ended': 'identity.audit.kind.sessionEnded',
  'invitation-created': 'identity.audit.kind.invitationCreated',
  'invitation-revoked': 'identity.audit.kind.invitationRevoked',
  'invitation-accepted': 'identity.audit.kind.invitationAccepted',
  'sign-up-requested': 'identity.audit.kind.signUpRequested',
  'sign-up-verified': 'identity.audit.kind.signUpVerified',
  'password-reset-requested': 'identity.audit.kind.passwordResetRequested',
  'password-reset-completed': 'identity.audit.kind.passwordResetCompleted',
  'password-changed': 'identity.audit.kind.passwordChanged',
  'token-created': 'identity.audit.kind.tokenCreated',
  'token-revoked': 'identity.audit.kind.tokenRevoked',
  'sso-sign-in': 'identity.audit.kind.ssoSignIn',
  'sso-linked': 'identity.audit.kind.ssoLinked',
  'sso-failed': 'identity.audit.kind.ssoFailed',
  'mfa-enabled': 'identity.audit.kind.mfaEnabled',
  'mfa-disabled': 'identity.audit.kind.mfaDisabled',
  'mfa-failed': 'identity.audit.kind.mfaFailed',
  'recovery-codes-replaced': 'identity.audit.kind.recoveryCodesReplaced',
  'sessions-ended-by-admin': 'identity.audit.kind.sessionsEndedByAdmin',
  'email-changed': 'identity.audit.kind.emailChanged',
};

const ALL = 'all';

function kindOf(param: string | null): AuthEventKind | null {
  return AUTH_EVENT_KINDS.find((kind) => kind === param) ?? null;
}

export default function AuditPage() {
  const t = useT();
  return (
    <AdminFrame title={t('identity.audit.title')}>
      <Events />
    </AdminFrame>
  );
}

function Events() {
  const t = useT();
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
        label={t('identity.audit.kind')}
        value={kind ?? ALL}
        onChange={filter}
        allowDeselect={false}
        data={[
          { value: ALL, label: t('identity.audit.all') },
          ...AUTH_EVENT_KINDS.map((k) => ({ value: k, label: t(KIND_LABELS[k]) })),
        ]}
        maw={320}
      />
      {events.isPending ? (
        <Loading />
      ) : events.isError ? (
        <ErrorPanel error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.length === 0 ? (
        <Text c="dimmed">{kind === null ? t('identity.audit.none') : t('identity.audit.noneOfKind')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={880}>
          <Table striped aria-label={t('identity.audit.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('identity.audit.when')}</Table.Th>
                <Table.Th>{t('identity.audit.what')}</Table.Th>
                <Table.Th>{t('identity.audit.who')}</Table.Th>
                <Table.Th>{t('identity.audit.by')}</Table.Th>
                <Table.Th>{t('identity.audit.from')}</Table.Th>
                <Table.Th>{t('identity.audit.detail')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.map((event) => (
                <Table.Tr key={event.id} data-kind={event.kind}>
                  <Table.Td>{formatDateTime(event.at, locale)}</Table.Td>
                  <Table.Td>{event.kind in KIND_LABELS ? t(KIND_LABELS[event.kind]) : event.kind}</Table.Td>
                  <Table.Td>{event.email ?? event.userId ?? ''}</Table.Td>
                  <Table.Td>{event.actorId ?? t('identity.audit.self')}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{event.address ?? ''}</Text>
                    {event.userAgent !== null && (
                      <Text size="xs" c="dimmed">
                        {browserName(event.userAgent, t)}
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
