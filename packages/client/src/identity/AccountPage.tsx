/**
 * `/account`: the signed-in user's own account — their profile (the User record's fields their
 * role may update), their e-mail address, their password (the current one first; their other
 * sessions end), their sessions (end one, or all but this one), and the way to their notification
 * settings and API tokens. Changing the e-mail and ending sessions may ask to confirm it's you
 * (decision 0042). Everything here is the server's to allow; the page only hides what it would refuse.
 */
import '../styles/identity';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { SIGNED_IN_PATHS } from '@ninefold/model';
import { type FormEvent, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../admin/Loading';
import { useUser } from '../auth/session';
import { useAuthorizer } from '../runtime/access';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { lazyComponent } from '../runtime/lazy';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { NewPasswordInput } from './NewPasswordInput';
import { formProblem } from './form-problem';
import { useChangeEmail, useChangePassword, useEndSessions, useSessions } from './identity-api';
import { needsConfirmation, useConfirmIdentity } from './reauthentication';
import { METHOD_LABELS, browserName } from './sessions-text';
import { mayHoldTokens } from './token-roles';
import { useT } from '../i18n/I18nProvider';

// two-step sign-in, in a chunk of its own (decision 0041)
const TwoStepSection = lazyComponent(() =>
  import('../account/TwoStepSection').then((module) => module.default),
);

// with the form screen's chunk, which holds the record form (see FormScreen.tsx)
const ProfileForm = lazyComponent(() =>
  import('../screens/form/FormScreen').then((module) => module.ProfileForm),
);

export default function AccountPage() {
  const t = useT();
  useDocumentTitle(t('identity.account.title'));
  const model = useModel();
  const user = useUser();
  return (
    <Stack gap="xl" py="md" maw={880}>
      <div>
        <Title order={1}>{t('identity.account.title')}</Title>
        <Text c="dimmed" size="sm">
          {user.email}
        </Text>
      </div>
      <Stack gap="sm" component="section" aria-labelledby="account-profile">
        <Title order={2} size="h3" id="account-profile">
          {t('identity.account.profile')}
        </Title>
        <Suspense fallback={<Loading />}>
          <ProfileForm />
        </Suspense>
      </Stack>
      <Suspense fallback={<Loading />}>
        <ChangeEmail />
      </Suspense>
      <ChangePassword name={user.name} email={user.email} />
      <Suspense fallback={<Loading />}>
        <TwoStepSection />
      </Suspense>
      <Sessions />
      {(Object.keys(model.notifications).length > 0 || mayHoldTokens(model, user.roles)) && (
        <Stack gap="xs" component="section" aria-labelledby="account-more">
          <Title order={2} size="h3" id="account-more">
            {t('identity.account.more')}
          </Title>
          {Object.keys(model.notifications).length > 0 && (
            <Anchor component={Link} to={SIGNED_IN_PATHS.notificationSettings}>
              {t('identity.account.notificationSettings')}
            </Anchor>
          )}
          {mayHoldTokens(model, user.roles) && (
            <Anchor component={Link} to={SIGNED_IN_PATHS.accountTokens}>
              {t('identity.account.tokens')}
            </Anchor>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** The e-mail address, and its own form for a user whose role may change it. */
function ChangeEmail() {
  const t = useT();
  const model = useModel();
  const user = useUser();
  const access = useAuthorizer();
  const change = useChangeEmail();
  const confirm = useConfirmIdentity();
  const [email, setEmail] = useState('');
  const record = { ...user.context, id: user.id };
  const writable = access.can('update', 'User', record) ? access.writable('User', 'update', record) : [];
  const mayChange = model.entities['User'] !== undefined && (writable === null || writable.includes('email'));
  const problem =
    change.error === null || needsConfirmation(change.error)
      ? null
      : formProblem(model, change.error, ['email']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { email };
    const onSuccess = () => setEmail('');
    change.mutate(input, {
      onSuccess,
      onError: (error) => confirm.retryAfterConfirmation(error, () => change.mutate(input, { onSuccess })),
    });
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="account-email">
      {confirm.dialog}
      <Title order={2} size="h3" id="account-email">
        {t('identity.account.email')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('identity.account.emailIntro')}
      </Text>
      <Text data-testid="account-email">{user.email}</Text>
      {mayChange && (
        <form onSubmit={submit} noValidate aria-label={t('identity.account.changeEmail')}>
          <Stack gap="sm" maw={480}>
            {change.isSuccess && (
              <Alert color="green" variant="light" role="status">
                {t('identity.account.emailChanged')}
              </Alert>
            )}
            {problem?.message != null && (
              <Alert color="red" role="alert" data-error-code={problem.code}>
                {problem.message}
              </Alert>
            )}
            <TextInput
              type="email"
              label={t('identity.account.newEmail')}
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={problem?.fields['email']}
            />
            <Group>
              <Button type="submit" loading={change.isPending} disabled={email.trim() === ''}>
                {t('identity.account.changeEmail')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function ChangePassword({ name, email }: { name: string; email: string }) {
  const t = useT();
  const model = useModel();
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const problem =
    change.error === null ? null : formProblem(model, change.error, ['currentPassword', 'password']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { currentPassword, password },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setPassword('');
        },
      },
    );
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="account-password">
      <Title order={2} size="h3" id="account-password">
        {t('identity.account.password')}
      </Title>
      <form onSubmit={submit} noValidate aria-label={t('identity.account.change')}>
        <Stack gap="sm" maw={480}>
          {change.isSuccess && (
            <Alert color="green" variant="light" role="status">
              {t('identity.account.changed')}
            </Alert>
          )}
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          {/* the account's name, for password managers to file the new password under */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <PasswordInput
            label={t('identity.account.currentPassword')}
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.currentTarget.value)}
            error={problem?.fields['currentPassword']}
          />
          <NewPasswordInput
            label={t('identity.account.newPassword')}
            value={password}
            onChange={setPassword}
            error={problem?.fields['password']}
            userInputs={[name, email]}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t('identity.account.change')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function Sessions() {
  const t = useT();
  const model = useModel();
  const sessions = useSessions();
  const end = useEndSessions();
  const confirm = useConfirmIdentity();
  const locale = model.product.locale;
  const endSessions = (which: { readonly id: string } | 'others') =>
    end.mutate(which, {
      onError: (error) => confirm.retryAfterConfirmation(error, () => end.mutate(which)),
    });
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="account-sessions">
      <Title order={2} size="h3" id="account-sessions">
        {t('identity.account.sessions')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('identity.account.sessionsIntro')}
      </Text>
      {confirm.dialog}
      {end.isError && !needsConfirmation(end.error) && (
        <Alert color="red" role="alert" title={t('identity.account.notEnded')}>
          {describeError(model, end.error).message}
        </Alert>
      )}
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <ErrorPanel error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label={t('identity.account.sessions')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('identity.account.browser')}</Table.Th>
                  <Table.Th>{t('identity.account.address')}</Table.Th>
                  <Table.Th>{t('identity.account.method')}</Table.Th>
                  <Table.Th>{t('identity.account.lastSeen')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('identity.account.end')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.map((session) => (
                  <Table.Tr key={session.id} data-testid="session-row">
                    <Table.Td>
                      <Group gap="xs">
                        <span>{browserName(session.userAgent, t)}</span>
                        {session.current && (
                          // whole in any language: below the browser's name when the cell is narrow
                          <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                            {t('identity.account.thisDevice')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{session.address ?? t('identity.account.unknown')}</Table.Td>
                    <Table.Td>
                      {session.method === null
                        ? t('identity.account.unknown')
                        : t(METHOD_LABELS[session.method])}
                    </Table.Td>
                    <Table.Td>{formatDateTime(session.lastSeenAt, locale)}</Table.Td>
                    <Table.Td>
                      {!session.current && (
                        <Button
                          size="xs"
                          variant="default"
                          loading={
                            end.isPending && end.variables !== 'others' && end.variables.id === session.id
                          }
                          onClick={() => endSessions({ id: session.id })}
                          aria-label={t('identity.account.endSession', {
                            browser: browserName(session.userAgent, t),
                            lastSeen: formatDateTime(session.lastSeenAt, locale),
                          })}
                        >
                          {t('identity.account.end')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {others.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('identity.account.noOthers')}
            </Text>
          ) : (
            <Group>
              <Button
                variant="default"
                color="red"
                loading={end.isPending && end.variables === 'others'}
                onClick={() => endSessions('others')}
              >
                {t('identity.account.endOthers')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
