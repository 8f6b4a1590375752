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
import { useT } from '../i18n/I18nProvider';

const EXPIRY_DAYS = [7, 30, IDENTITY_LIFETIMES.tokenDefaultDays, 180, IDENTITY_LIFETIMES.tokenMaxDays];

export default function TokensPage() {
  const t = useT();
  useDocumentTitle(t('identity.tokens.title'));
  const { model } = useRuntime();
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const [created, setCreated] = useState<NewTokenAnswer | null>(null);
  const [revoking, setRevoking] = useState<WireToken | null>(null);
  const locale = model.product.locale;
  return (
    <Stack gap="xl" py="md" maw={880}>
      <div>
        <Title order={1}>{t('identity.tokens.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('identity.tokens.intro', { prefix: TOKEN_PREFIX })}
        </Text>
      </div>
      {created !== null ? (
        <Stack gap="sm" component="section" aria-labelledby="token-new">
          <Title order={2} size="h3" id="token-new">
            {t('identity.tokens.newTitle')}
          </Title>
          <SecretOnce
            label={t('identity.tokens.newLabel')}
            value={created.token}
            warning={t('identity.tokens.warning')}
          />
        </Stack>
      ) : null}
      <CreateToken onCreated={setCreated} />
      <Stack gap="sm" component="section" aria-labelledby="token-list">
        <Title order={2} size="h3" id="token-list">
          {t('identity.tokens.list')}
        </Title>
        {revoke.isError && (
          <Alert color="red" role="alert" title={t('identity.tokens.notRevoked')}>
            {describeError(model, revoke.error).message}
          </Alert>
        )}
        {tokens.isPending ? (
          <Loading />
        ) : tokens.isError ? (
          <ErrorPanel error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <Text c="dimmed">{t('identity.tokens.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label={t('identity.tokens.list')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('identity.tokens.name')}</Table.Th>
                  <Table.Th>{t('identity.tokens.roles')}</Table.Th>
                  <Table.Th>{t('identity.tokens.created')}</Table.Th>
                  <Table.Th>{t('identity.tokens.expires')}</Table.Th>
                  <Table.Th>{t('identity.tokens.lastUsed')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('identity.tokens.revoke')}</VisuallyHidden>
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
                      {token.lastUsedAt === null
                        ? t('identity.tokens.never')
                        : formatDateTime(token.lastUsedAt, locale)}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        onClick={() => setRevoking(token)}
                        aria-label={`${t('identity.tokens.revoke')}: ${token.name}`}
                      >
                        {t('identity.tokens.revoke')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('identity.tokens.revokeTitle')}
      >
        <Stack>
          <Text size="sm">{t('identity.tokens.revokeText', { name: revoking?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red.8"
              loading={revoke.isPending}
              onClick={() => {
                if (revoking === null) return;
                revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
              }}
            >
              {t('identity.tokens.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function CreateToken({ onCreated }: { onCreated(answer: NewTokenAnswer): void }) {
  const t = useT();
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
    name: name.trim() === '' ? t('identity.tokens.nameMissing') : undefined,
    roles: roles.length === 0 ? t('identity.tokens.rolesMissing') : undefined,
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
        {t('identity.tokens.create')}
      </Title>
      <form onSubmit={submit} noValidate aria-label={t('identity.tokens.create')}>
        <Stack gap="sm" maw={480}>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={t('identity.tokens.name')}
            description={t('identity.tokens.nameHint')}
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem?.fields['name'] ?? (checked ? local.name : undefined)}
          />
          <MultiSelect
            label={t('identity.tokens.roles')}
            required
            data={allowed.map((role) => ({ value: role, label: model.roles[role]?.label ?? role }))}
            value={roles}
            onChange={setRoles}
            error={problem?.fields['roles'] ?? (checked ? local.roles : undefined)}
          />
          <Select
            label={t('identity.tokens.expiry')}
            data={EXPIRY_DAYS.map((n) => ({ value: String(n), label: t('identity.tokens.days', { n }) }))}
            value={days}
            onChange={(value) => setDays(value ?? String(IDENTITY_LIFETIMES.tokenDefaultDays))}
            allowDeselect={false}
            error={problem?.fields['expiresAt']}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('identity.tokens.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
