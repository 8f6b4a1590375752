import { Alert, Group, Text } from '@mantine/core';
import { describeError, isRetryable } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { TextButton } from './buttons';
import { useT } from '../i18n/I18nProvider';

/** A failure as its catalogue message, with a retry when trying again may help. */
export function ErrorPanel({
  error,
  onRetry,
  title,
  alwaysRetry = false,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  /** Offer the retry whatever the error (a render failure may pass on a second try). */
  alwaysRetry?: boolean;
}) {
  const model = useModel();
  const t = useT();
  const { code, message } = describeError(model, error);
  return (
    <Alert color="red" title={title ?? t('first.errorTitle')} role="alert" data-error-code={code}>
      <Text size="sm">{message}</Text>
      {onRetry !== undefined && (alwaysRetry || isRetryable(error)) && (
        <Group mt="sm">
          <TextButton size="xs" variant="default" onClick={onRetry}>
            {t('first.tryAgain')}
          </TextButton>
        </Group>
      )}
    </Alert>
  );
}
