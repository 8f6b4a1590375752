/**
 * What creating a user answers (`_invitation`, decision 0035): that their invitation was mailed,
 * or — when the server sends no mail — its link, shown this once for the admin to pass on.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type InvitationAnswer } from '@ninefold/model';
import { SecretOnce } from './SecretOnce';

const TEXT = {
  sentTitle: 'Invitation sent',
  sent: 'An invitation to set a password is on its way to {email}. It works for 7 days.',
  linkTitle: 'Invitation link',
  link: 'This server sends no mail: give this link to {email} yourself. It works once, for 7 days.',
  linkLabel: 'Invitation link',
  warning: 'Copy the link now: it is shown only this once. You can send a new one from Invitations.',
  done: 'Done',
} as const;

/** Whether a value is an invitation answer (the key is only on a created user's answer). */
export function isInvitationAnswer(value: unknown): value is InvitationAnswer {
  return typeof value === 'object' && value !== null && 'mailed' in value && 'email' in value;
}

/**
 * @example <InvitationDialog answer={record._invitation} onClose={() => navigate(next)} />
 */
export function InvitationDialog({ answer, onClose }: { answer: InvitationAnswer; onClose(): void }) {
  const shown = answer.link !== null && !answer.mailed;
  return (
    <Modal opened onClose={onClose} title={shown ? TEXT.linkTitle : TEXT.sentTitle} size="lg">
      <Stack>
        <Text size="sm">{(shown ? TEXT.link : TEXT.sent).replace('{email}', answer.email)}</Text>
        {shown && answer.link !== null && (
          <SecretOnce label={TEXT.linkLabel} value={answer.link} warning={TEXT.warning} />
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{TEXT.done}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
