/**
 * The frame of the pages before signing in (sign-up, forgotten password, one-time links): the
 * product's name over a card, as the sign-in page has it, with a way back to sign-in.
 */
import '../styles/identity';
import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { APP_PATHS } from '@ninefold/model';
import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { useT } from '../i18n/I18nProvider';

/**
 * @example <AuthCard title="Create an account">…</AuthCard>
 */
export function AuthCard({
  title,
  children,
  backToSignIn = true,
}: {
  title: string;
  children: ReactNode;
  /** Whether the card ends with a link to the sign-in page. */
  backToSignIn?: boolean;
}) {
  const model = useModel();
  const t = useT();
  useDocumentTitle(title);
  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        <Stack>
          <div>
            <Text c="dimmed" size="sm">
              {model.product.name}
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
          </div>
          {children}
          {backToSignIn && (
            <Text size="sm" ta="center">
              <Anchor component={Link} to={APP_PATHS.signIn}>
                {t('identity.backToSignIn')}
              </Anchor>
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
