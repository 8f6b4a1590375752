/**
 * The signed-in user's two-step sign-in (decision 0041), a section for the account page: turn it
 * on (password, then the QR code or the key for an authenticator app, then a code from it), see
 * the recovery codes once (copy or download them), replace them, turn it off. Every change but the
 * code's confirmation asks for the password again, as the server does; turning on or off offers to
 * sign out the user's other sessions (ASVS 5.0 7.4.3). When the spec requires it of the user
 * (`auth.mfa`), "Turn off" is not offered, and the section says why. Self-contained and its own chunk: drop
 * `<TwoStepSection />` (lazily) into any signed-in page.
 */
import '../styles/two-step';
import { Alert, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type MfaEnrolment } from '@ninefold/model';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useUser } from '../auth/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { Loading } from '../admin/Loading';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { AppKey, RecoveryCodes } from './two-step-parts';
import { useTwoStep, useTwoStepChanges } from './two-step-api';

/** What the section shows besides the state: a form, the enrolment, or new recovery codes. */
type Step =
  | { readonly kind: 'idle' }
  | { readonly kind: 'password'; readonly action: 'enrol' | 'codes' | 'disable' }
  | { readonly kind: 'enrolling'; readonly enrolment: MfaEnrolment }
  | { readonly kind: 'codes'; readonly codes: readonly string[] };

const IDLE: Step = { kind: 'idle' };

export default function TwoStepSection() {
  const model = useModel();
  const user = useUser();
  const status = useTwoStep(user.id);
  const changes = useTwoStepChanges(user.id);
  const [step, setStep] = useState<Step>(IDLE);
  const titleId = useId();

  let body: ReactNode;
  if (step.kind === 'codes') {
    body = <RecoveryCodes codes={step.codes} doneLabel="I have saved them" onDone={() => setStep(IDLE)} />;
  } else if (status.isPending) {
    body = <Loading />;
  } else if (status.isError) {
    body = <ErrorPanel error={status.error} onRetry={() => void status.refetch()} />;
  } else if (!status.data.available) {
    body = (
      <Text size="sm">
        You sign in with single sign-on: your company’s sign-in asks for the second step, not this app.
      </Text>
    );
  } else if (step.kind === 'enrolling') {
    body = (
      <Enrolment
        enrolment={step.enrolment}
        confirm={changes.confirm}
        onConfirmed={(codes) => setStep({ kind: 'codes', codes })}
        onCancel={() => setStep(IDLE)}
      />
    );
  } else if (step.kind === 'password') {
    const action = step.action;
    body = (
      <PasswordStep
        action={action}
        onCancel={() => setStep(IDLE)}
        onDone={async (currentPassword, endOtherSessions) => {
          if (action === 'enrol') {
            setStep({ kind: 'enrolling', enrolment: await changes.enrol.mutateAsync({ currentPassword }) });
          } else if (action === 'codes') {
            const answer = await changes.replaceCodes.mutateAsync({ currentPassword });
            setStep({ kind: 'codes', codes: answer.recoveryCodes });
          } else {
            await changes.disable.mutateAsync({ currentPassword, endOtherSessions });
            setStep(IDLE);
          }
        }}
      />
    );
  } else if (status.data.enabled) {
    body = (
      <Stack gap="sm">
        <Text size="sm">
          <strong>On.</strong> Signing in asks for a code from your authenticator app after your password.{' '}
          {status.data.recoveryCodesLeft === 1
            ? '1 recovery code is left.'
            : `${status.data.recoveryCodesLeft} recovery codes are left.`}
        </Text>
        {status.data.required && (
          <Text size="sm" data-testid="two-step-required">
            {model.product.name} requires two-step sign-in for your account, so it cannot be turned off.
          </Text>
        )}
        <Group gap="sm">
          <Button variant="default" onClick={() => setStep({ kind: 'password', action: 'codes' })}>
            New recovery codes
          </Button>
          {!status.data.required && (
            <Button
              variant="default"
              color="red"
              onClick={() => setStep({ kind: 'password', action: 'disable' })}
            >
              Turn off
            </Button>
          )}
        </Group>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          <strong>Off.</strong> Add a second step to signing in: a code from an authenticator app on your
          phone, so that your password alone does not open your account.
        </Text>
        <Button onClick={() => setStep({ kind: 'password', action: 'enrol' })}>Turn on</Button>
      </Stack>
    );
  }

  return (
    <Stack component="section" gap="sm" aria-labelledby={titleId} data-testid="two-step-section">
      <Title order={2} size="h3" id={titleId}>
        Two-step sign-in
      </Title>
      {body}
    </Stack>
  );
}

const ACTIONS = {
  enrol: { label: 'Continue', hint: 'Enter your password to turn two-step sign-in on.' },
  codes: { label: 'Make new codes', hint: 'Enter your password: your old recovery codes will stop working.' },
  disable: { label: 'Turn off', hint: 'Enter your password to turn two-step sign-in off.' },
} as const;

/** The password again, before any change (ASVS 5.0 7.5.1). */
function PasswordStep({
  action,
  onDone,
  onCancel,
}: {
  action: keyof typeof ACTIONS;
  onDone(currentPassword: string, endOtherSessions: boolean): Promise<void>;
  onCancel(): void;
}) {
  const model = useModel();
  const [password, setPassword] = useState('');
  const [endOthers, setEndOthers] = useState(true);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    onDone(password, endOthers).then(
      () => setPending(false),
      (failure: unknown) => {
        setPending(false);
        setError(failure);
      },
    );
  };
  const failure = error === null ? null : describeError(model, error);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={420}>
        <Text size="sm">{ACTIONS[action].hint}</Text>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          data-autofocus
          autoFocus
        />
        {action === 'disable' && (
          <Checkbox
            label="Also sign me out everywhere else"
            checked={endOthers}
            onChange={(e) => setEndOthers(e.currentTarget.checked)}
          />
        )}
        <Group gap="sm">
          <Button type="submit" loading={pending} {...(action === 'disable' ? { color: 'red' } : {})}>
            {ACTIONS[action].label}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The QR code and key for the app, and the code that proves the app has it. */
function Enrolment({
  enrolment,
  confirm,
  onConfirmed,
  onCancel,
}: {
  enrolment: MfaEnrolment;
  confirm: ReturnType<typeof useTwoStepChanges>['confirm'];
  onConfirmed(codes: readonly string[]): void;
  onCancel(): void;
}) {
  const model = useModel();
  const [code, setCode] = useState('');
  const [endOthers, setEndOthers] = useState(true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { code: code.trim(), endOtherSessions: endOthers },
      { onSuccess: (answer) => onConfirmed(answer.recoveryCodes) },
    );
  };
  const failure = confirm.error === null ? null : describeError(model, confirm.error);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={420}>
        <Text size="sm">
          1. Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft
          Authenticator, 1Password or Aegis).
        </Text>
        <AppKey enrolment={enrolment} />
        <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        <TextInput
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={7}
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <Checkbox
          label="Also sign me out everywhere else"
          checked={endOthers}
          onChange={(e) => setEndOthers(e.currentTarget.checked)}
        />
        <Group gap="sm">
          <Button type="submit" loading={confirm.isPending}>
            Turn on
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
