/**
 * "Confirm it's you" (decision 0042): the dialog a sensitive change opens when the server answers
 * E_REAUTH_REQUIRED. It asks for the password, or a code of the authenticator app when two-step
 * sign-in is on; a single sign-on user (who has no password) is sent to sign in again, which is a
 * fresh authentication. A wrong answer shows beside its field; the server counts it as a sign-in.
 */
import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { API_PATHS } from '@ninefold/model';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '../admin/Loading';
import { useTwoStep } from '../account/two-step-api';
import { useUser } from '../auth/session';
import { useModel } from '../runtime/runtime';
import { formProblem } from './form-problem';
import { useConfirmSession } from './identity-api';
import { useT } from '../i18n/I18nProvider';

export default function ConfirmIdentity({
  onConfirmed,
  onCancel,
}: {
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const user = useUser();
  const twoStep = useTwoStep(user.id);
  return (
    <Modal opened onClose={onCancel} title={t('identity.confirm.title')} centered>
      {twoStep.isPending ? (
        <Loading />
      ) : twoStep.data?.available === false ? (
        <SignInAgain onCancel={onCancel} />
      ) : (
        <ProofForm
          codeFirst={twoStep.data?.enabled === true}
          codeAllowed={twoStep.data?.enabled === true}
          onConfirmed={onConfirmed}
          onCancel={onCancel}
        />
      )}
    </Modal>
  );
}

function ProofForm(props: {
  codeFirst: boolean;
  codeAllowed: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const model = useModel();
  const user = useUser();
  const confirm = useConfirmSession();
  const [withCode, setWithCode] = useState(props.codeFirst);
  const [value, setValue] = useState('');
  const problem = confirm.error === null ? null : formProblem(model, confirm.error, ['password', 'code']);
  const fieldError =
    problem === null ? undefined : (problem.fields[withCode ? 'code' : 'password'] ?? problem.message);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(withCode ? { code: value.trim() } : { password: value }, { onSuccess: props.onConfirmed });
  };
  const switchProof = () => {
    setWithCode(!withCode);
    setValue('');
    confirm.reset();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('identity.confirm.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('identity.confirm.intro')}</Text>
        {/* the account's name, for password managers to offer its password */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        {withCode ? (
          <TextInput
            label={t('identity.confirm.code')}
            description={t('identity.confirm.codeHint')}
            autoComplete="one-time-code"
            required
            data-autofocus
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={fieldError}
            data-error-code={problem?.code}
          />
        ) : (
          <PasswordInput
            label={t('identity.confirm.password')}
            autoComplete="current-password"
            required
            data-autofocus
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={fieldError}
            data-error-code={problem?.code}
          />
        )}
        {props.codeAllowed && (
          <Anchor component="button" type="button" size="sm" onClick={switchProof}>
            {withCode ? t('identity.confirm.usePassword') : t('identity.confirm.useCode')}
          </Anchor>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={confirm.isPending} disabled={value === ''}>
            {t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SignInAgain({ onCancel }: { onCancel: () => void }) {
  const t = useT();
  const model = useModel();
  const location = useLocation();
  const base = model.calls.basePath.replace(/\/+$/, '');
  const back = `${location.pathname}${location.search}`;
  return (
    <Stack gap="sm">
      <Alert color="blue" variant="light">
        {t('identity.confirm.sso', { provider: model.auth.oidc?.label ?? t('identity.singleSignOn') })}
      </Alert>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button component="a" href={`${base}/${API_PATHS.oidcStart}?returnTo=${encodeURIComponent(back)}`}>
          {t('identity.confirm.signInAgain')}
        </Button>
      </Group>
    </Stack>
  );
}
