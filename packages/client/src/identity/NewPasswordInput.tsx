/**
 * A new password's field with its strength meter: a bar (Mantine's Progress) and a sentence that
 * says the same in words, announced politely as it changes (the bar's colour is never the only
 * sign). The estimator loads when the field first shows. The server's refusal, when there is one,
 * shows as the field's error: its answer is the authority, the meter only advises.
 */
import '../styles/identity';
import { PasswordInput, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useModel } from '../runtime/runtime';
import { STRENGTH_TEXT, STRENGTH_VALUES, loadStrengthEstimator, passwordStrength } from './password-strength';

export interface NewPasswordInputProps {
  readonly label: string;
  readonly value: string;
  onChange(value: string): void;
  /** The server's refusal of the password, if any. */
  readonly error?: string | undefined;
  /** Words of the person a password should not be built on (their name, e-mail); the product's name is added. */
  readonly userInputs?: readonly string[];
  readonly autoFocus?: boolean;
}

/**
 * @example <NewPasswordInput label="New password" value={password} onChange={setPassword} />
 */
export function NewPasswordInput({
  label,
  value,
  onChange,
  error,
  userInputs = [],
  autoFocus = false,
}: NewPasswordInputProps) {
  const t = useT();
  const [, setLoaded] = useState(0);
  const meterId = useId();
  useEffect(() => {
    // a failed load leaves the meter to the length rules; the server still checks everything
    loadStrengthEstimator().then(
      () => setLoaded((n) => n + 1),
      () => undefined,
    );
  }, []);
  const product = useModel().product.name;
  const strength = passwordStrength(value, [...userInputs, product]);
  return (
    <Stack gap={6}>
      <PasswordInput
        label={label}
        autoComplete="new-password"
        required
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
        aria-describedby={meterId}
        data-autofocus={autoFocus || undefined}
        autoFocus={autoFocus}
      />
      <Progress
        value={strength?.percent ?? 0}
        color={strength?.color ?? 'gray'}
        size="sm"
        aria-hidden
        data-testid="password-meter"
      />
      <Text id={meterId} size="xs" c="dimmed" aria-live="polite" data-testid="password-verdict">
        {t(strength?.verdict ?? STRENGTH_TEXT.checking, STRENGTH_VALUES)}
      </Text>
    </Stack>
  );
}
