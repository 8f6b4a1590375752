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

const TEXT = {
  title: 'Forgot your password?',
  intro: 'Enter the address you sign in with, and we will send you a link to choose a new password.',
  closed: 'Passwords cannot be reset here. Ask the person who looks after this app.',
  email: 'Email',
  emailMissing: 'Enter your email address.',
  submit: 'Send the link',
  sentTitle: 'Check your mail',
  sent: 'If an account uses this address, a link is on its way. It works once, for 30 minutes.',
} as const;

export default function ForgotPasswordPage() {
  const model = useModel();
  const [params] = useSearchParams();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [checked, setChecked] = useState(false);

  if (!model.auth.passwordReset) {
    return (
      <AuthCard title={TEXT.title}>
        <Text>{TEXT.closed}</Text>
      </AuthCard>
    );
  }
  if (request.isSuccess) {
    return (
      <AuthCard title={TEXT.sentTitle}>
        <Alert color="blue" variant="light" role="status">
          {TEXT.sent}
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
    <AuthCard title={TEXT.title}>
      <form onSubmit={submit} noValidate aria-label={TEXT.title}>
        <Stack>
          <Text size="sm">{TEXT.intro}</Text>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={TEXT.email}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={problem?.fields['email'] ?? (checked && missing ? TEXT.emailMissing : undefined)}
            autoFocus
          />
          <Button type="submit" loading={request.isPending} fullWidth>
            {TEXT.submit}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
