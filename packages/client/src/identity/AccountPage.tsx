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

// two-step sign-in, in a chunk of its own (decision 0041)
const TwoStepSection = lazyComponent(() =>
  import('../account/TwoStepSection').then((module) => module.default),
);

// with the form screen's chunk, which holds the record form (see FormScreen.tsx)
const ProfileForm = lazyComponent(() =>
  import('../screens/form/FormScreen').then((module) => module.ProfileForm),
);

const TEXT = {
  title: 'Your account',
  profile: 'Profile',
  email: 'E-mail address',
  newEmail: 'New e-mail address',
  changeEmail: 'Change e-mail',
  emailChanged: 'Your e-mail address is changed. A note went to the old one.',
  emailIntro: 'Where sign-in, password resets and notices go.',
  password: 'Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  change: 'Change password',
  changed: 'Your password is changed. Your other sessions were signed out.',
  sessions: 'Sessions',
  sessionsIntro: 'Where you are signed in. End a session you do not recognise.',
  browser: 'Browser',
  address: 'Address',
  method: 'Signed in with',
  lastSeen: 'Last seen',
  thisDevice: 'This device',
  end: 'End',
  endOthers: 'End all other sessions',
  noOthers: 'You are signed in nowhere else.',
  notEnded: 'The session was not ended',
  unknown: 'Unknown',
  more: 'More',
  notificationSettings: 'Notification settings',
  tokens: 'API tokens',
} as const;

export default function AccountPage() {
  useDocumentTitle(TEXT.title);
  const model = useModel();
  const user = useUser();
  return (
    <Stack gap="xl" py="md" maw={880}>
      <div>
        <Title order={1}>{TEXT.title}</Title>
        <Text c="dimmed" size="sm">
          {user.email}
        </Text>
      </div>
      <Stack gap="sm" component="section" aria-labelledby="account-profile">
        <Title order={2} size="h3" id="account-profile">
          {TEXT.profile}
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
            {TEXT.more}
          </Title>
          {Object.keys(model.notifications).length > 0 && (
            <Anchor component={Link} to={SIGNED_IN_PATHS.notificationSettings}>
              {TEXT.notificationSettings}
            </Anchor>
          )}
          {mayHoldTokens(model, user.roles) && (
            <Anchor component={Link} to={SIGNED_IN_PATHS.accountTokens}>
              {TEXT.tokens}
            </Anchor>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** The e-mail address, and its own form for a user whose role may change it. */
function ChangeEmail() {
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
        {TEXT.email}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXT.emailIntro}
      </Text>
      <Text data-testid="account-email">{user.email}</Text>
      {mayChange && (
        <form onSubmit={submit} noValidate aria-label={TEXT.changeEmail}>
          <Stack gap="sm" maw={480}>
            {change.isSuccess && (
              <Alert color="green" variant="light" role="status">
                {TEXT.emailChanged}
              </Alert>
            )}
            {problem?.message != null && (
              <Alert color="red" role="alert" data-error-code={problem.code}>
                {problem.message}
              </Alert>
            )}
            <TextInput
              type="email"
              label={TEXT.newEmail}
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={problem?.fields['email']}
            />
            <Group>
              <Button type="submit" loading={change.isPending} disabled={email.trim() === ''}>
                {TEXT.changeEmail}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function ChangePassword({ name, email }: { name: string; email: string }) {
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
        {TEXT.password}
      </Title>
      <form onSubmit={submit} noValidate aria-label={TEXT.change}>
        <Stack gap="sm" maw={480}>
          {change.isSuccess && (
            <Alert color="green" variant="light" role="status">
              {TEXT.changed}
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
            label={TEXT.currentPassword}
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.currentTarget.value)}
            error={problem?.fields['currentPassword']}
          />
          <NewPasswordInput
            label={TEXT.newPassword}
            value={password}
            onChange={setPassword}
            error={problem?.fields['password']}
            userInputs={[name, email]}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {TEXT.change}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function Sessions() {
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
        {TEXT.sessions}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXT.sessionsIntro}
      </Text>
      {confirm.dialog}
      {end.isError && !needsConfirmation(end.error) && (
        <Alert color="red" role="alert" title={TEXT.notEnded}>
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
            <Table striped aria-label={TEXT.sessions}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{TEXT.browser}</Table.Th>
                  <Table.Th>{TEXT.address}</Table.Th>
                  <Table.Th>{TEXT.method}</Table.Th>
                  <Table.Th>{TEXT.lastSeen}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{TEXT.end}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.map((session) => (
                  <Table.Tr key={session.id} data-testid="session-row">
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <span>{browserName(session.userAgent)}</span>
                        {session.current && (
                          <Badge variant="light" size="sm">
                            {TEXT.thisDevice}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{session.address ?? TEXT.unknown}</Table.Td>
                    <Table.Td>
                      {session.method === null ? TEXT.unknown : METHOD_LABELS[session.method]}
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
                          aria-label={`${TEXT.end}: ${browserName(session.userAgent)}, ${formatDateTime(session.lastSeenAt, locale)}`}
                        >
                          {TEXT.end}
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
              {TEXT.noOthers}
            </Text>
          ) : (
            <Group>
              <Button
                variant="default"
                color="red"
                loading={end.isPending && end.variables === 'others'}
                onClick={() => endSessions('others')}
              >
                {TEXT.endOthers}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
