/**
 * Help built from the spec's own prose: what the product is for and for whom, then what each
 * specified section says, in the order of the spec.
 */
import { Stack, Text, Title } from '@mantine/core';
import { FACETS } from '@ninefold/model';
import { Markdown } from '../components/Markdown';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';
import { useT } from '../i18n/I18nProvider';

export default function HelpPage() {
  const model = useModel();
  const t = useT();
  useDocumentTitle(t('first.help'));
  const sections = FACETS.map((key) => model.facets[key]).filter(
    (facet) => facet.specified && facet.prose.trim() !== '',
  );
  return (
    <Stack maw={760} gap="xs">
      <Title order={1}>{t('first.help')}</Title>
      {model.product.summary !== '' && <Text size="lg">{model.product.summary}</Text>}
      {model.product.audience.length > 0 && (
        <Text c="dimmed">
          {t('common.helpAudience', {
            audience: new Intl.ListFormat(model.product.locale, { type: 'conjunction' }).format(
              model.product.audience,
            ),
          })}
        </Text>
      )}
      {sections.length === 0 && <Text>{t('common.helpNoProse')}</Text>}
      {sections.map((facet) => (
        <section key={facet.section} aria-labelledby={`help-${facet.section}`}>
          <Title order={2} id={`help-${facet.section}`} mt="lg" mb="xs">
            {facet.title}
          </Title>
          <Markdown source={facet.prose} headingOffset={2} />
        </section>
      ))}
    </Stack>
  );
}
