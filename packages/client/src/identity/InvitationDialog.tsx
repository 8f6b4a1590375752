/**
 * What creating a user answers (`_invitation`, decision 0035): that their invitation was mailed,
 * or — when the server sends no mail — its link, shown this once for the admin to pass on.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type InvitationAnswer } from '@ninefold/model';
import { SecretOnce } from './SecretOnce';
import { useT } from '../i18n/I18nProvider';

/** Whether a value is an invitation answer (the key is only on a created user's answer). */
export function isInvitationAnswer(value: unknown): value is InvitationAnswer {
  return typeof value === 'object' && value !== null && 'mailed' in value && 'email' in value;
}

/**
 * @example <InvitationDialog answer={record._invitation} onClose={() => navigate(next)} />
 */
export function InvitationDialog({ answer, onClose }: { answer: InvitationAnswer; onClose(): void }) {
  const t = useT();
  const shown = answer.link !== null && !answer.mailed;
  return (
    <Modal
      opened
      onClose={onClose}
      title={shown ? t('identity.invitation.linkTitle') : t('identity.invitation.sentTitle')}
      size="lg"
    >
      <Stack>
        <Text size="sm">
          {(shown ? t('identity.invitation.link') : t('identity.invitation.sent')).replace(
            '{email}',
            answer.email,
          )}
        </Text>
        {shown && answer.link !== null && (
          <SecretOnce
            label={t('identity.invitation.linkLabel')}
            value={answer.link}
            warning={t('identity.invitation.warning')}
          />
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('common.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
