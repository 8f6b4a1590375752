/**
 * A `dashboard` screen (decision 0049): its title and a responsive grid of its widgets' cards, one
 * column on a phone to three on a desktop. The figures come from the server, computed over only the
 * rows the viewer may read (`GET <basePath>/dashboards/<screen id>`); each opens the list it counts.
 * A widget the answer leaves out (over what the viewer may not read) is not shown.
 */
import '../../styles/dashboard';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type Screen } from '@ninefold/model';
import { useSession } from '../../auth/session';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useT } from '../../i18n/I18nProvider';
import { useModel } from '../../runtime/runtime';
import { useDocumentTitle } from '../../shell/title';
import { listTarget } from './click-through';
import { useDashboardFigures } from './dashboard-query';
import { WidgetCard } from './WidgetCard';

export default function DashboardScreen({ screen }: { screen: Screen }) {
  useDocumentTitle(screen.title);
  const model = useModel();
  const t = useT();
  const { data: session } = useSession();
  const user = session?.context ?? null;
  const figures = useDashboardFigures(screen.id);
  const byId = new Map(figures.data?.widgets.map((figure) => [figure.id, figure]));
  return (
    <Stack gap="md">
      <Title order={1}>{screen.title}</Title>
      {figures.error !== null && (
        <ErrorPanel
          error={figures.error}
          title={t('dashboard.loadFailed')}
          onRetry={() => void figures.refetch()}
          alwaysRetry
        />
      )}
      {screen.widgets.length === 0 && <Text>{t('dashboard.noFigures')}</Text>}
      {(figures.error === null || figures.data !== undefined) && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {screen.widgets.map((widget) => {
            const entity = model.entities[widget.entity];
            // the server leaves out a widget the viewer may not see (an entity or field they may not read)
            const hidden = figures.data !== undefined && !byId.has(widget.id);
            if (entity === undefined || hidden) return null;
            return (
              <WidgetCard
                key={widget.id}
                widget={widget}
                entity={entity}
                figure={byId.get(widget.id)}
                target={listTarget(model, user, widget)}
                locale={model.product.locale}
              />
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
