/**
 * What the spec says and what it leaves unspecified: each of the nine facets, and for those it
 * does not specify, what the app does by default. For the seed, every facet is listed here.
 */
import '../styles/about';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FACETS } from '@ninefold/model';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';

export default function AboutPage() {
  const model = useModel();
  useDocumentTitle('About this app');
  const facets = FACETS.map((key) => ({ key, ...model.facets[key] }));
  const unspecified = facets.filter((f) => !f.specified);
  return (
    <Stack maw={960}>
      <Title order={1}>About this app</Title>
      <Text>
        {model.product.name} runs from its specification: nine sections that say what it does, its screens,
        its data, its states, its rules, who may do what, the calls it makes, its errors and its limits.
      </Text>
      {unspecified.length > 0 ? (
        <Text fw={600} data-testid="unspecified-summary">
          {unspecified.length === 1
            ? 'One section of the spec is not specified yet; the app uses a default for it.'
            : `${unspecified.length} of the nine sections are not specified yet; the app uses a default for each.`}
        </Text>
      ) : (
        <Text fw={600}>Every section of the spec is specified.</Text>
      )}
      <Title order={2} size="h3">
        Not specified
      </Title>
      {unspecified.length === 0 && <Text c="dimmed">Nothing: the spec covers all nine sections.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {unspecified.map((facet) => (
          <Card
            key={facet.key}
            withBorder
            padding="md"
            component="section"
            aria-labelledby={`facet-${facet.key}`}
            data-facet={facet.key}
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Title order={3} size="h5" id={`facet-${facet.key}`}>
                {facet.section}. {facet.title}
              </Title>
              <Badge color="orange" variant="light">
                Unspecified
              </Badge>
            </Group>
            <Text size="sm" mt="xs">
              {facet.defaultBehaviour}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {unspecified.length < facets.length && (
        <>
          <Title order={2} size="h3">
            Specified
          </Title>
          <Stack gap={4}>
            {facets
              .filter((f) => f.specified)
              .map((facet) => (
                <Group key={facet.key} gap="xs" data-facet={facet.key}>
                  <Badge color="teal" variant="light">
                    Specified
                  </Badge>
                  <Text size="sm">
                    {facet.section}. {facet.title}
                  </Text>
                </Group>
              ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
