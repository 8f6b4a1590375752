import { Stack, Title } from '@mantine/core';
import { type Screen } from '@ninefold/model';
import { Markdown } from '../../components/Markdown';
import { useDocumentTitle } from '../../shell/title';

/** A `page` screen: its title and its Markdown body. */
export default function PageScreen({ screen }: { screen: Screen }) {
  useDocumentTitle(screen.title);
  return (
    <Stack maw={760} gap="xs">
      <Title order={1}>{screen.title}</Title>
      <Markdown source={screen.body} headingOffset={1} />
    </Stack>
  );
}
