import { Group, Stack } from '@mantine/core';
import { Heading } from '../components/Heading';
import { type ReactNode } from 'react';
import { ButtonLink } from '../components/buttons';
import { useDocumentTitle } from '../shell/title';
import { useT } from '../i18n/I18nProvider';

/** A page that says why there is nothing to show, with the catalogue's message and a way on. */
export function StatusPage({
  title,
  code,
  message,
  children,
}: {
  title: string;
  code: string;
  message: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  const t = useT();
  return (
    <Stack maw={560} py="xl" data-error-code={code}>
      <Heading order={1}>{title}</Heading>
      <p className="nf-text">{message}</p>
      {children}
      <Group>
        <ButtonLink to="/" variant="light">
          {t('first.goToStart')}
        </ButtonLink>
      </Group>
    </Stack>
  );
}
