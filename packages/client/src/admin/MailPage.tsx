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
import { useModel } from '../runtime/runtime';
import { Loading } from './Loading';
import { AdminFrame } from './AdminFrame';
import { useMailOutbox } from './admin-api';

export default function MailPage() {
  return (
    <AdminFrame title="Mail outbox">
      <Outbox />
    </AdminFrame>
  );
}

function Outbox() {
  const model = useModel();
  const mail = useMailOutbox();
  const [open, setOpen] = useState<WireMail | null>(null);
  if (mail.isPending) return <Loading />;
  if (mail.isError) return <ErrorPanel error={mail.error} onRetry={() => void mail.refetch()} />;
  const locale = model.product.locale;
  return (
    <>
      <Text size="sm" c="dimmed">
        Mail is kept here while no SMTP server is set up (SMTP_URL).
      </Text>
      {mail.data.length === 0 ? (
        <Text c="dimmed">No mail yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-label="Mail outbox">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Subject</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Sent</Table.Th>
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
                      {item.subject === '' ? '(no subject)' : item.subject}
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
  return (
    <Stack gap="sm">
      <Text size="sm">
        To {mail.to} · {formatDateTime(mail.createdAt, locale)}
      </Text>
      <Title order={2} size="h5">
        Text
      </Title>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="mail-text">
        {mail.text}
      </Text>
      {mail.html !== '' && (
        <>
          <Title order={2} size="h5">
            HTML
          </Title>
          <iframe
            title={`HTML of “${mail.subject}”`}
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
