/**
 * `/sign-up`, when the spec's `auth.signUp` is set: name, e-mail and a new password with its
 * strength meter. The server answers the same whatever the address (taken or new), and so does
 * this page: "Check your mail", where a link to confirm the address waits (`/link`).
 */
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@ninefold/model';
import { type FormEvent, useState } from 'react';
import { useModel } from '../runtime/runtime';
import { AuthCard } from './AuthCard';
import { NewPasswordInput } from './NewPasswordInput';
import { formProblem } from './form-problem';
import { useSignUp } from './identity-api';
import { useT } from '../i18n/I18nProvider';

export default function SignUpPage() {
  const t = useT();
  const model = useModel();
  const signUp = useSignUp();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);

  if (model.auth.signUp === null) {
    return (
      <AuthCard title={t('identity.signUp.title')}>
        <Text>{t('identity.signUp.closed')}</Text>
      </AuthCard>
    );
  }
  if (signUp.isSuccess) {
    return (
      <AuthCard title={t('identity.signUp.sentTitle')}>
        <Alert color="blue" variant="light" role="status">
          {t('identity.signUp.sent')}
        </Alert>
      </AuthCard>
    );
  }

  const length = [...password].length;
  const local = {
    name: name.trim() === '' ? t('identity.signUp.nameMissing') : undefined,
    email: email.trim() === '' ? t('identity.signUp.emailMissing') : undefined,
    password:
      length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH
        ? t('identity.signUp.passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })
        : undefined,
  };
  const problem =
    signUp.error === null ? null : formProblem(model, signUp.error, ['name', 'email', 'password']);
  const errorOf = (field: keyof typeof local) =>
    problem?.fields[field] ?? (checked ? local[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.values(local).some((said) => said !== undefined)) return;
    signUp.mutate({ name: name.trim(), email: email.trim(), password });
  };

  return (
    <AuthCard title={t('identity.signUp.title')}>
      <form onSubmit={submit} noValidate aria-label={t('identity.signUp.title')}>
        <Stack>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={t('identity.signUp.name')}
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errorOf('name')}
            autoFocus
          />
          <TextInput
            label={t('identity.signUp.email')}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errorOf('email')}
          />
          <NewPasswordInput
            label={t('identity.signUp.password')}
            value={password}
            onChange={setPassword}
            error={errorOf('password')}
            userInputs={[name, email]}
          />
          <Button type="submit" loading={signUp.isPending} fullWidth>
            {t('identity.signUp.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
