/**
 * A sign-in's second step (decision 0041): after a right password for a user with two-step
 * sign-in on, the code from their authenticator app, or one of their recovery codes instead. When
 * the spec requires the factor of a user who has none (`enrol`), the step is its enrolment: the QR
 * code and key of a new secret, the app's first code, then the recovery codes shown once, and
 * "Continue" enters the app. Its own chunk: only people with the factor on (or due) ever load it.
 */
import { Alert, Anchor, Button, Center, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  API_PATHS,
  type EnrolledSessionAnswer,
  type MfaEnrolment,
  type SessionAnswer,
} from '@ninefold/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { AppKey, RecoveryCodes } from '../account/two-step-parts';
import { describeError } from '../runtime/messages';
import { useHttp, useModel } from '../runtime/runtime';
import { useT } from '../i18n/I18nProvider';
import { signedIn } from './session-actions';

export default function SecondStep({
  challenge,
  enrol = false,
  onRestart,
}: {
  challenge: string;
  /** The spec requires the factor and the user has none: enrol first (`mfa.enrol` of the 202). */
  enrol?: boolean;
  onRestart(): void;
}) {
  return enrol ? (
    <RequiredEnrolment challenge={challenge} onRestart={onRestart} />
  ) : (
    <CodeStep challenge={challenge} onRestart={onRestart} />
  );
}

/** The code of the app, or a recovery code, for a user whose factor is on. */
function CodeStep({ challenge, onRestart }: { challenge: string; onRestart(): void }) {
  const model = useModel();
  const t = useT();
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
            {t('account.twoStep.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {recovery ? t('account.twoStep.enterRecovery') : t('account.twoStep.enterCode')}
          </Text>
        </div>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        {over ? (
          <Button onClick={onRestart} fullWidth>
            {t('account.twoStep.signInAgain')}
          </Button>
        ) : (
          <>
            {recovery ? (
              <TextInput
                key="recovery"
                label={t('account.twoStep.recoveryCode')}
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
                label={t('account.twoStep.code')}
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
              {t('account.twoStep.verify')}
            </Button>
            <Text size="sm" ta="center">
              <Anchor component="button" type="button" onClick={switchKind}>
                {recovery ? t('account.twoStep.useAppCode') : t('account.twoStep.useRecoveryCode')}
              </Anchor>
            </Text>
            <Text size="sm" ta="center">
              <Anchor component="button" type="button" onClick={onRestart}>
                {t('account.twoStep.backToSignIn')}
              </Anchor>
            </Text>
          </>
        )}
      </Stack>
    </form>
  );
}

/**
 * The enrolment a sign-in must begin with when the spec requires the factor: a new secret for the
 * challenge, its first code (which turns the factor on and starts the session), and the recovery
 * codes, shown once; the app is entered only on "Continue", so they cannot be skipped by accident.
 */
function RequiredEnrolment({ challenge, onRestart }: { challenge: string; onRestart(): void }) {
  const model = useModel();
  const t = useT();
  const http = useHttp();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  // asked once per challenge; asking again (a new mount) replaces the secret on the server
  const enrolment = useQuery({
    queryKey: ['sign-in', 'enrolment', challenge],
    queryFn: () => http.request<MfaEnrolment>('POST', API_PATHS.mfaEnrolSignIn, { body: { challenge } }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const finish = useMutation({
    mutationFn: (body: { challenge: string; code: string }) =>
      http.request<EnrolledSessionAnswer>('POST', API_PATHS.mfaSignIn, { body }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish.mutate({ challenge, code: code.trim() });
  };
  const error = finish.error ?? enrolment.error;
  const failure = error === null ? null : describeError(model, error);
  const over = failure?.code === 'E_MFA_CHALLENGE';
  const answer = finish.data;
  const enter = (session: SessionAnswer) => signedIn(client, { user: session.user });

  if (answer !== undefined) {
    return (
      <Stack aria-labelledby="second-step-title" component="section">
        <Title order={1} size="h2" id="second-step-title">
          {t('account.twoStep.isOn')}
        </Title>
        {answer.recoveryCodes === undefined ? (
          <Button onClick={() => enter(answer)} fullWidth>
            {t('common.continue')}
          </Button>
        ) : (
          <RecoveryCodes
            codes={answer.recoveryCodes}
            doneLabel={t('common.continue')}
            onDone={() => enter(answer)}
          />
        )}
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <Stack>
        <div>
          <Title order={1} size="h2" id="second-step-title">
            {t('account.twoStep.setUp')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('account.twoStep.setUpIntro', { product: model.product.name })}
          </Text>
        </div>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        {over ? (
          <Button onClick={onRestart} fullWidth>
            {t('account.twoStep.signInAgain')}
          </Button>
        ) : enrolment.data === undefined ? (
          enrolment.isPending && (
            <Center py="md">
              <Loader aria-label={t('account.twoStep.preparing')} />
            </Center>
          )
        ) : (
          <>
            <Text size="sm">{t('account.twoStep.scan')}</Text>
            <AppKey enrolment={enrolment.data} />
            <Text size="sm">{t('account.twoStep.enterAppCode')}</Text>
            <TextInput
              label={t('account.twoStep.code')}
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9 ]*"
              maxLength={7}
              required
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
            <Button type="submit" loading={finish.isPending} fullWidth>
              {t('account.twoStep.turnOnAndSignIn')}
            </Button>
          </>
        )}
        {!over && (
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={onRestart}>
              {t('account.twoStep.backToSignIn')}
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  );
}
