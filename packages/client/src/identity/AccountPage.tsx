/**
 * `/account`: the signed-in user's own account — their profile (the User record's fields their
 * role may update), their password (the current one first; their other sessions end), their
 * sessions (end one, or all but this one), and the way to their notification settings and API
 * tokens. Everything here is the server's to allow; the page only hides what it would refuse.
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
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { SIGNED_IN_PATHS } from '@ninefold/model';
import { type FormEvent, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../admin/Loading';
import { useUser } from '../auth/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { lazyComponent } from '../runtime/lazy';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { NewPasswordInput } from './NewPasswordInput';
import { formProblem } from './form-problem';
import { useChangePassword, useEndSessions, useSessions } from './identity-api';
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
  const locale = model.product.locale;
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="account-sessions">
      <Title order={2} size="h3" id="account-sessions">
        {TEXT.sessions}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXT.sessionsIntro}
      </Text>
      {end.isError && (
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
                          onClick={() => end.mutate({ id: session.id })}
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
                onClick={() => end.mutate('others')}
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
