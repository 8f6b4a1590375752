/**
 * `/forgot-password`: an e-mail address, and the same answer whatever it is — "If an account uses
 * this address, a link is on its way" — so that the page tells nobody who has an account here.
 * `?email=` fills the address in (an expired reset link sends people here with theirs).
 */
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useModel } from '../runtime/runtime';
import { AuthCard } from './AuthCard';
import { formProblem } from './form-problem';
import { useRequestPasswordReset } from './identity-api';
import { useT } from '../i18n/I18nProvider';

export default function ForgotPasswordPage() {
  const t = useT();
  const model = useModel();
  const [params] = useSearchParams();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [checked, setChecked] = useState(false);

  if (!model.auth.passwordReset) {
    return (
      <AuthCard title={t('identity.forgot.title')}>
        <Text>{t('identity.forgot.closed')}</Text>
      </AuthCard>
    );
  }
  if (request.isSuccess) {
    return (
      <AuthCard title={t('identity.forgot.sentTitle')}>
        <Alert color="blue" variant="light" role="status">
          {t('identity.forgot.sent')}
        </Alert>
      </AuthCard>
    );
  }
  const missing = email.trim() === '';
  const problem = request.error === null ? null : formProblem(model, request.error, ['email']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!missing) request.mutate({ email: email.trim() });
  };
  return (
    <AuthCard title={t('identity.forgot.title')}>
      <form onSubmit={submit} noValidate aria-label={t('identity.forgot.title')}>
        <Stack>
          <Text size="sm">{t('identity.forgot.intro')}</Text>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={t('identity.forgot.email')}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={
              problem?.fields['email'] ?? (checked && missing ? t('identity.forgot.emailMissing') : undefined)
            }
            autoFocus
          />
          <Button type="submit" loading={request.isPending} fullWidth>
            {t('identity.forgot.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
