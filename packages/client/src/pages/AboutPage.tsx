/**
 * What the spec says and what it leaves unspecified: each of the nine facets, and for those it
 * does not specify, what the app does by default. For the seed, every facet is listed here.
 */
import '../styles/about';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FACETS } from '@ninefold/model';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { useT } from '../i18n/I18nProvider';

export default function AboutPage() {
  const model = useModel();
  const t = useT();
  useDocumentTitle(t('first.about'));
  const facets = FACETS.map((key) => ({ key, ...model.facets[key] }));
  const unspecified = facets.filter((f) => !f.specified);
  return (
    <Stack maw={960}>
      <Title order={1}>{t('first.about')}</Title>
      <Text>{t('common.aboutIntro', { product: model.product.name })}</Text>
      {unspecified.length > 0 ? (
        <Text fw={600} data-testid="unspecified-summary">
          {t('common.aboutUnspecified', { n: unspecified.length })}
        </Text>
      ) : (
        <Text fw={600}>{t('common.aboutAllSpecified')}</Text>
      )}
      <Title order={2} size="h3">
        {t('common.aboutNotSpecified')}
      </Title>
      {unspecified.length === 0 && <Text c="dimmed">{t('common.aboutNothingUnspecified')}</Text>}
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
                {t('common.aboutUnspecifiedBadge')}
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
            {t('common.aboutSpecified')}
          </Title>
          <Stack gap={4}>
            {facets
              .filter((f) => f.specified)
              .map((facet) => (
                <Group key={facet.key} gap="xs" data-facet={facet.key}>
                  <Badge color="teal" variant="light">
                    {t('common.aboutSpecifiedBadge')}
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
