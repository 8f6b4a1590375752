import '../styles/sign-in';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { APP_PATHS } from '@ninefold/model';
import { Link, Navigate, useSearchParams } from 'react-router';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { useSession } from './session';
import { useSignIn } from './session-actions';
import { LoadWholeModel, useNeedsWholeModel } from './whole-model';

/** Only a path of this app: never another origin (`//evil.example`), never a scheme. */
export function safeNext(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

export function SignInPage() {
  const model = useModel();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const needsWholeModel = useNeedsWholeModel(session.data != null);

  if (needsWholeModel) return <LoadWholeModel to={next} />;
  if (session.data != null) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  const failure = signIn.error === null ? null : describeError(model, signIn.error);
  const expired = params.get('next') !== null && signIn.error === null;

  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                {model.product.name}
              </Title>
              {model.product.summary !== '' && (
                <Text c="dimmed" size="sm" mt={4}>
                  {model.product.summary}
                </Text>
              )}
            </div>
            {expired && (
              <Alert color="blue" variant="light" role="status">
                Please sign in to continue.
              </Alert>
            )}
            {failure !== null && (
              <Alert color="red" role="alert" data-error-code={failure.code}>
                {failure.message}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-autofocus
              autoFocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={signIn.isPending} fullWidth>
              Sign in
            </Button>
            {model.auth.passwordReset && (
              <Text size="sm" ta="center">
                <Anchor component={Link} to={APP_PATHS.forgotPassword}>
                  Forgot your password?
                </Anchor>
              </Text>
            )}
            {/* single sign-on ("Sign in with …", when `auth.oidc` is set) goes here */}
            {model.auth.signUp !== null && (
              <Text size="sm" ta="center">
                <Anchor component={Link} to={APP_PATHS.signUp}>
                  Create an account
                </Anchor>
              </Text>
            )}
            <Text size="sm" c="dimmed" ta="center">
              <Anchor component={Link} to="/about">
                About this app
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
