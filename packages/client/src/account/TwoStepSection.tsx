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
import { useT } from '../i18n/I18nProvider';
import { richText } from '../i18n/rich';
import { type MessageKey } from '../i18n/catalogue';
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
  const t = useT();
  const user = useUser();
  const status = useTwoStep(user.id);
  const changes = useTwoStepChanges(user.id);
  const [step, setStep] = useState<Step>(IDLE);
  const titleId = useId();

  let body: ReactNode;
  if (step.kind === 'codes') {
    body = (
      <RecoveryCodes
        codes={step.codes}
        doneLabel={t('account.twoStep.savedThem')}
        onDone={() => setStep(IDLE)}
      />
    );
  } else if (status.isPending) {
    body = <Loading />;
  } else if (status.isError) {
    body = <ErrorPanel error={status.error} onRetry={() => void status.refetch()} />;
  } else if (!status.data.available) {
    body = <Text size="sm">{t('account.twoStep.sso')}</Text>;
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
          {richText(t, 'account.twoStep.onText', { on: <strong>{t('account.twoStep.on')}</strong> })}{' '}
          {t('account.twoStep.codesLeft', { n: status.data.recoveryCodesLeft })}
        </Text>
        {status.data.required && (
          <Text size="sm" data-testid="two-step-required">
            {t('account.twoStep.required', { product: model.product.name })}
          </Text>
        )}
        <Group gap="sm">
          <Button variant="default" onClick={() => setStep({ kind: 'password', action: 'codes' })}>
            {t('account.twoStep.newCodes')}
          </Button>
          {!status.data.required && (
            <Button
              variant="default"
              color="red"
              onClick={() => setStep({ kind: 'password', action: 'disable' })}
            >
              {t('account.twoStep.turnOff')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {richText(t, 'account.twoStep.offText', { off: <strong>{t('account.twoStep.off')}</strong> })}
        </Text>
        <Button onClick={() => setStep({ kind: 'password', action: 'enrol' })}>
          {t('account.twoStep.turnOn')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack component="section" gap="sm" aria-labelledby={titleId} data-testid="two-step-section">
      <Title order={2} size="h3" id={titleId}>
        {t('account.twoStep.title')}
      </Title>
      {body}
    </Stack>
  );
}

const ACTIONS = {
  enrol: { label: 'common.continue', hint: 'account.twoStep.hintEnrol' },
  codes: { label: 'account.twoStep.makeCodes', hint: 'account.twoStep.hintCodes' },
  disable: { label: 'account.twoStep.turnOff', hint: 'account.twoStep.hintDisable' },
} as const satisfies Record<string, { label: MessageKey; hint: MessageKey }>;

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
  const t = useT();
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
        <Text size="sm">{t(ACTIONS[action].hint)}</Text>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
        <PasswordInput
          label={t('account.twoStep.currentPassword')}
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          data-autofocus
          autoFocus
        />
        {action === 'disable' && (
          <Checkbox
            label={t('account.twoStep.endOthers')}
            checked={endOthers}
            onChange={(e) => setEndOthers(e.currentTarget.checked)}
          />
        )}
        <Group gap="sm">
          <Button type="submit" loading={pending} {...(action === 'disable' ? { color: 'red' } : {})}>
            {t(ACTIONS[action].label)}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            {t('common.cancel')}
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
  const t = useT();
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
        <Text size="sm">{t('account.twoStep.scan')}</Text>
        <AppKey enrolment={enrolment} />
        <Text size="sm">{t('account.twoStep.enterAppCode')}</Text>
        {failure !== null && (
          <Alert color="red" role="alert" data-error-code={failure.code}>
            {failure.message}
          </Alert>
        )}
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
        <Checkbox
          label={t('account.twoStep.endOthers')}
          checked={endOthers}
          onChange={(e) => setEndOthers(e.currentTarget.checked)}
        />
        <Group gap="sm">
          <Button type="submit" loading={confirm.isPending}>
            {t('account.twoStep.turnOn')}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
