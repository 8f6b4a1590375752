/**
 * `/account/tokens`, for a user holding a role of `auth.tokens`: their personal API tokens — name,
 * roles, dates, last use — a form to make one (name, roles among theirs that tokens may hold, an
 * expiry), the new token shown once to copy, and revoking one after a confirmation. Making one may
 * ask to confirm it's you first (decision 0042).
 */
import '../styles/identity';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IDENTITY_LIFETIMES, type NewTokenAnswer, TOKEN_PREFIX, type WireToken } from '@ninefold/model';
import { type FormEvent, useState } from 'react';
import { Loading } from '../admin/Loading';
import { useUser } from '../auth/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { useRuntime } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { SecretOnce } from './SecretOnce';
import { formProblem } from './form-problem';
import { useCreateToken, useRevokeToken, useTokens } from './identity-api';
import { needsConfirmation, useConfirmIdentity } from './reauthentication';
import { tokenRoles } from './token-roles';

const TEXT = {
  title: 'API tokens',
  intro: `A token lets a script use the API as you, with the roles you give it: send it as “Authorization: Bearer ${TOKEN_PREFIX}…”. Every rule applies to it as to you.`,
  create: 'Create a token',
  name: 'Name',
  nameHint: 'What it is for, like “Nightly export”.',
  nameMissing: 'Give the token a name.',
  roles: 'Roles',
  rolesMissing: 'Choose at least one role.',
  expiry: 'Expires after',
  submit: 'Create token',
  newTitle: 'Your new token',
  newLabel: 'API token',
  warning: 'Copy the token now: it is shown only this once. If you lose it, revoke it and create another.',
  list: 'Your tokens',
  none: 'You have no tokens.',
  created: 'Created',
  expires: 'Expires',
  lastUsed: 'Last used',
  never: 'Never',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this token?',
  revokeText: 'Scripts that use “{name}” stop working at once. This cannot be undone.',
  cancel: 'Cancel',
  notRevoked: 'The token was not revoked',
  days: (days: number) => `${days} days`,
} as const;

const EXPIRY_DAYS = [7, 30, IDENTITY_LIFETIMES.tokenDefaultDays, 180, IDENTITY_LIFETIMES.tokenMaxDays];

export default function TokensPage() {
  useDocumentTitle(TEXT.title);
  const { model } = useRuntime();
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const [created, setCreated] = useState<NewTokenAnswer | null>(null);
  const [revoking, setRevoking] = useState<WireToken | null>(null);
  const locale = model.product.locale;
  return (
    <Stack gap="xl" py="md" maw={880}>
      <div>
        <Title order={1}>{TEXT.title}</Title>
        <Text size="sm" c="dimmed">
          {TEXT.intro}
        </Text>
      </div>
      {created !== null ? (
        <Stack gap="sm" component="section" aria-labelledby="token-new">
          <Title order={2} size="h3" id="token-new">
            {TEXT.newTitle}
          </Title>
          <SecretOnce label={TEXT.newLabel} value={created.token} warning={TEXT.warning} />
        </Stack>
      ) : null}
      <CreateToken onCreated={setCreated} />
      <Stack gap="sm" component="section" aria-labelledby="token-list">
        <Title order={2} size="h3" id="token-list">
          {TEXT.list}
        </Title>
        {revoke.isError && (
          <Alert color="red" role="alert" title={TEXT.notRevoked}>
            {describeError(model, revoke.error).message}
          </Alert>
        )}
        {tokens.isPending ? (
          <Loading />
        ) : tokens.isError ? (
          <ErrorPanel error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <Text c="dimmed">{TEXT.none}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label={TEXT.list}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{TEXT.name}</Table.Th>
                  <Table.Th>{TEXT.roles}</Table.Th>
                  <Table.Th>{TEXT.created}</Table.Th>
                  <Table.Th>{TEXT.expires}</Table.Th>
                  <Table.Th>{TEXT.lastUsed}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{TEXT.revoke}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.map((token) => (
                  <Table.Tr key={token.id} data-testid="token-row">
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>{token.roles.map((r) => model.roles[r]?.label ?? r).join(', ')}</Table.Td>
                    <Table.Td>{formatDateTime(token.createdAt, locale)}</Table.Td>
                    <Table.Td>{formatDateTime(token.expiresAt, locale)}</Table.Td>
                    <Table.Td>
                      {token.lastUsedAt === null ? TEXT.never : formatDateTime(token.lastUsedAt, locale)}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        onClick={() => setRevoking(token)}
                        aria-label={`${TEXT.revoke}: ${token.name}`}
                      >
                        {TEXT.revoke}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title={TEXT.revokeTitle}>
        <Stack>
          <Text size="sm">{TEXT.revokeText.replace('{name}', revoking?.name ?? '')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {TEXT.cancel}
            </Button>
            <Button
              color="red.8"
              loading={revoke.isPending}
              onClick={() => {
                if (revoking === null) return;
                revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
              }}
            >
              {TEXT.revoke}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function CreateToken({ onCreated }: { onCreated(answer: NewTokenAnswer): void }) {
  const { model, now } = useRuntime();
  const user = useUser();
  const allowed = tokenRoles(model, user.roles);
  const create = useCreateToken();
  const confirm = useConfirmIdentity();
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<string[]>(allowed);
  const [days, setDays] = useState(String(IDENTITY_LIFETIMES.tokenDefaultDays));
  const [checked, setChecked] = useState(false);
  const problem =
    create.error === null || needsConfirmation(create.error)
      ? null
      : formProblem(model, create.error, ['name', 'roles', 'expiresAt']);
  const local = {
    name: name.trim() === '' ? TEXT.nameMissing : undefined,
    roles: roles.length === 0 ? TEXT.rolesMissing : undefined,
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (local.name !== undefined || local.roles !== undefined) return;
    const expiresAt = new Date(now().getTime() + Number(days) * 86_400_000).toISOString();
    const input = { name: name.trim(), roles, expiresAt };
    const onSuccess = (answer: NewTokenAnswer) => {
      onCreated(answer);
      setName('');
      setChecked(false);
    };
    // a session not confirmed within ten minutes is asked to first (decision 0042)
    create.mutate(input, {
      onSuccess,
      onError: (error) => confirm.retryAfterConfirmation(error, () => create.mutate(input, { onSuccess })),
    });
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="token-create">
      {confirm.dialog}
      <Title order={2} size="h3" id="token-create">
        {TEXT.create}
      </Title>
      <form onSubmit={submit} noValidate aria-label={TEXT.create}>
        <Stack gap="sm" maw={480}>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={TEXT.name}
            description={TEXT.nameHint}
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem?.fields['name'] ?? (checked ? local.name : undefined)}
          />
          <MultiSelect
            label={TEXT.roles}
            required
            data={allowed.map((role) => ({ value: role, label: model.roles[role]?.label ?? role }))}
            value={roles}
            onChange={setRoles}
            error={problem?.fields['roles'] ?? (checked ? local.roles : undefined)}
          />
          <Select
            label={TEXT.expiry}
            data={EXPIRY_DAYS.map((n) => ({ value: String(n), label: TEXT.days(n) }))}
            value={days}
            onChange={(value) => setDays(value ?? String(IDENTITY_LIFETIMES.tokenDefaultDays))}
            allowDeselect={false}
            error={problem?.fields['expiresAt']}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              {TEXT.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
