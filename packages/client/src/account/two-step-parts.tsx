/**
 * What enrolling in two-step sign-in shows wherever it happens (decision 0041) — in the account's
 * section, and at a sign-in that the spec requires it for: the authenticator app's QR code with the
 * key to type instead, and the recovery codes, shown once, to copy or download.
 */
import '../styles/two-step';
import { Alert, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { type MfaEnrolment } from '@ninefold/model';
import { useState } from 'react';
import { useModel } from '../runtime/runtime';
import { useT } from '../i18n/I18nProvider';
import { richText } from '../i18n/rich';

/**
 * The QR code of an enrolment (an `<img>` of its SVG as a data URL) and its key, in groups of four.
 *
 * @example <AppKey enrolment={enrolment} />
 */
export function AppKey({ enrolment }: { enrolment: MfaEnrolment }) {
  const model = useModel();
  const t = useT();
  const key = enrolment.secret.match(/.{1,4}/g)?.join(' ') ?? enrolment.secret;
  return (
    <>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt={t('account.twoStep.qrAlt', { product: model.product.name })}
        width={200}
        height={200}
        style={{ background: 'white' }}
      />
      <Text size="sm">
        {richText(t, 'account.twoStep.cannotScan', {
          key: (
            <Code data-testid="two-step-key" style={{ userSelect: 'all' }}>
              {key}
            </Code>
          ),
        })}
      </Text>
    </>
  );
}

/**
 * The recovery codes, this once: to copy or download before `onDone` leaves them.
 *
 * @example <RecoveryCodes codes={answer.recoveryCodes} doneLabel="Continue" onDone={enter} />
 */
export function RecoveryCodes({
  codes,
  doneLabel,
  onDone,
}: {
  codes: readonly string[];
  doneLabel: string;
  onDone(): void;
}) {
  const model = useModel();
  const t = useT();
  const [copied, setCopied] = useState(false);
  const text = `${t('account.twoStep.codesFileTitle', { product: model.product.name })}\n\n${codes.join('\n')}\n`;
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${model.product.name.replace(/[^\w.-]+/g, '-')}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm" maw={480}>
      <Alert color="yellow" title={t('account.twoStep.saveCodesTitle')} role="status">
        {t('account.twoStep.saveCodes')}
      </Alert>
      <List
        data-testid="recovery-codes"
        spacing={2}
        listStyleType="none"
        ff="monospace"
        aria-label={t('account.twoStep.recoveryCodes')}
      >
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group gap="sm">
        <Button variant="default" onClick={copy}>
          {copied ? t('common.copied') : t('common.copy')}
        </Button>
        <Button variant="default" onClick={download}>
          {t('common.download')}
        </Button>
        <Button onClick={onDone}>{doneLabel}</Button>
      </Group>
    </Stack>
  );
}
