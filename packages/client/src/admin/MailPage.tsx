/**
 * The development mail outbox for admins: the mail the product would have sent had `SMTP_URL` been
 * set, newest first. Opening one shows its text, and its HTML in a sandboxed frame: `srcdoc` with
 * an empty `sandbox` runs no script, submits no form and has an origin of its own, so a mail's HTML
 * (written from records' values) can never act in the app's origin.
 */
import { Modal, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { type WireMail } from '@ninefold/model';
import { useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatDateTime } from '../format/values';
import { useT } from '../i18n/I18nProvider';
import { useModel } from '../runtime/runtime';
import { Loading } from './Loading';
import { AdminFrame } from './AdminFrame';
import { useMailOutbox } from './admin-api';

export default function MailPage() {
  const t = useT();
  return (
    <AdminFrame title={t('admin.mail')}>
      <Outbox />
    </AdminFrame>
  );
}

function Outbox() {
  const t = useT();
  const model = useModel();
  const mail = useMailOutbox();
  const [open, setOpen] = useState<WireMail | null>(null);
  if (mail.isPending) return <Loading />;
  if (mail.isError) return <ErrorPanel error={mail.error} onRetry={() => void mail.refetch()} />;
  const locale = model.product.locale;
  return (
    <>
      <Text size="sm" c="dimmed">
        {t('admin.mail.kept')}
      </Text>
      {mail.data.length === 0 ? (
        <Text c="dimmed">{t('admin.mail.none')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-label={t('admin.mail')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.mail.subject')}</Table.Th>
                <Table.Th>{t('admin.mail.to')}</Table.Th>
                <Table.Th>{t('admin.mail.sent')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mail.data.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <UnstyledButton
                      className="mantine-focus-auto"
                      onClick={() => setOpen(item)}
                      td="underline"
                      fz="sm"
                    >
                      {item.subject === '' ? t('admin.mail.noSubject') : item.subject}
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td>{item.to}</Table.Td>
                  <Table.Td>{formatDateTime(item.createdAt, locale)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.subject} size="lg">
        {open !== null && <MailView mail={open} locale={locale} />}
      </Modal>
    </>
  );
}

function MailView({ mail, locale }: { mail: WireMail; locale: string }) {
  const t = useT();
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('admin.mail.toAt', { to: mail.to, at: formatDateTime(mail.createdAt, locale) })}
      </Text>
      <Title order={2} size="h5">
        {t('admin.mail.text')}
      </Title>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="mail-text">
        {mail.text}
      </Text>
      {mail.html !== '' && (
        <>
          <Title order={2} size="h5">
            {t('admin.mail.html')}
          </Title>
          <iframe
            title={t('admin.mail.htmlOf', { subject: mail.subject })}
            // no token: scripts, forms, popups and same-origin access are all refused
            sandbox=""
            srcDoc={mail.html}
            referrerPolicy="no-referrer"
            style={{ width: '100%', minHeight: 240, border: '1px solid var(--mantine-color-default-border)' }}
          />
        </>
      )}
    </Stack>
  );
}
