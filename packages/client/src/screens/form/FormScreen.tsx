import { Title } from '@mantine/core';
import { type Screen } from '@ninefold/spec/model';
import { useDocumentTitle } from '../../shell/title';

/** Placeholder until the form screen lands. */
export default function FormScreen({ screen }: { screen: Screen }) {
  useDocumentTitle(screen.title);
  return <Title order={1}>{screen.title}</Title>;
}
