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

const TEXT = {
  title: 'Create an account',
  closed: 'Accounts here are opened by invitation. Ask the person who looks after this app to invite you.',
  name: 'Your name',
  email: 'Email',
  password: 'Password',
  submit: 'Create account',
  sentTitle: 'Check your mail',
  sent: 'If this address can open an account, a link to confirm it is on its way. Open it to finish signing up.',
  nameMissing: 'Enter your name.',
  emailMissing: 'Enter your email address.',
  passwordLength: `Use ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
} as const;

export default function SignUpPage() {
  const model = useModel();
  const signUp = useSignUp();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);

  if (model.auth.signUp === null) {
    return (
      <AuthCard title={TEXT.title}>
        <Text>{TEXT.closed}</Text>
      </AuthCard>
    );
  }
  if (signUp.isSuccess) {
    return (
      <AuthCard title={TEXT.sentTitle}>
        <Alert color="blue" variant="light" role="status">
          {TEXT.sent}
        </Alert>
      </AuthCard>
    );
  }

  const length = [...password].length;
  const local = {
    name: name.trim() === '' ? TEXT.nameMissing : undefined,
    email: email.trim() === '' ? TEXT.emailMissing : undefined,
    password: length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH ? TEXT.passwordLength : undefined,
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
    <AuthCard title={TEXT.title}>
      <form onSubmit={submit} noValidate aria-label={TEXT.title}>
        <Stack>
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          <TextInput
            label={TEXT.name}
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errorOf('name')}
            autoFocus
          />
          <TextInput
            label={TEXT.email}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errorOf('email')}
          />
          <NewPasswordInput
            label={TEXT.password}
            value={password}
            onChange={setPassword}
            error={errorOf('password')}
            userInputs={[name, email]}
          />
          <Button type="submit" loading={signUp.isPending} fullWidth>
            {TEXT.submit}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
