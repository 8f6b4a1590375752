import { Stack, Title } from '@mantine/core';
import { type Screen } from '@ninefold/model';
import { useDocumentTitle } from '../../shell/title';

/**
 * A `dashboard` screen: its title and its widgets' figures (decision 0046). The figures come from
 * `GET <basePath>/dashboards/<screen id>`; until that lands, the screen shows its title only.
 */
export default function DashboardScreen({ screen }: { screen: Screen }) {
  useDocumentTitle(screen.title);
  return (
    <Stack gap="md">
      <Title order={1}>{screen.title}</Title>
    </Stack>
  );
}
