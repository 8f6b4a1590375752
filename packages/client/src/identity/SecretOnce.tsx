/**
 * A secret shown this once (an invitation's link, a new API token): in a read-only field to select
 * or copy, with a warning that it will not be shown again. The copy button says "Copied" in words.
 */
import { Alert, Button, CopyButton, Group, Stack, TextInput } from '@mantine/core';
import { useT } from '../i18n/I18nProvider';

/**
 * @example <SecretOnce label="API token" value={answer.token} warning="Copy it now: it is shown only once." />
 */
export function SecretOnce({ label, value, warning }: { label: string; value: string; warning: string }) {
  const t = useT();
  return (
    <Stack gap="xs">
      <Alert color="orange" variant="light" role="status">
        {warning}
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={label}
          value={value}
          readOnly
          flex={1}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="secret-once"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button variant={copied ? 'light' : 'default'} onClick={copy} aria-live="polite">
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
