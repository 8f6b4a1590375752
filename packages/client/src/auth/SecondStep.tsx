/**
 * A sign-in's second step (decision 0041): after a right password for a user with two-step
 * sign-in on, the code from their authenticator app, or one of their recovery codes instead. Its
 * own chunk: only people with the factor on ever load it.
 */
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { API_PATHS, type SessionAnswer } from '@ninefold/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { describeError } from '../runtime/messages';
import { useHttp, useModel } from '../runtime/runtime';
import { signedIn } from './session-actions';

export default function SecondStep({ challenge, onRestart }: { challenge: string; onRestart(): void }) {
  const model = useModel();
  const http = useHttp();
  const client = useQueryClient();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const finish = useMutation({
    mutationFn: (body: { challenge: string; code: string }) =>
      http.request<SessionAnswer>('POST', API_PATHS.mfaSignIn, { body }),
    onSuccess: (answer) => signedIn(client, answer),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish.mutate({ challenge, code: code.trim() });
  };
  const failure = finish.error === null ? null : describeError(model, finish.error);
  // the challenge is over (expired, or too many wrong codes): only the password step starts anew
  const over = failure?.code === 'E_MFA_CHALLENGE';
  const switchKind = () => {
    setRecovery(!recovery);
    setCode('');
    finish.reset();
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <Stack>
        <div>
          <Title order={1} size="h2" id="second-step-title">
            Two-step sign-in
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned two-step sign-in on. Each works once.'
              : 'Enter the 6-digit code your authenticator app shows for this account.'}
          </Text>
        </div>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        {over ? (
          <Button onClick={onRestart} fullWidth>
            Sign in again
          </Button>
        ) : (
          <>
            {recovery ? (
              <TextInput
                key="recovery"
                label="Recovery code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                data-autofocus
                autoFocus
              />
            ) : (
              <TextInput
                key="code"
                label="Authentication code"
                autoComplete="one-time-code"
                inputMode="numeric"
                pattern="[0-9 ]*"
                maxLength={7}
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                data-autofocus
                autoFocus
              />
            )}
            <Button type="submit" loading={finish.isPending} fullWidth>
              Verify
            </Button>
            <Text size="sm" ta="center">
              <Anchor component="button" type="button" onClick={switchKind}>
                {recovery ? 'Use the code from your app instead' : 'Use a recovery code instead'}
              </Anchor>
            </Text>
            <Text size="sm" ta="center">
              <Anchor component="button" type="button" onClick={onRestart}>
                Back to sign-in
              </Anchor>
            </Text>
          </>
        )}
      </Stack>
    </form>
  );
}
