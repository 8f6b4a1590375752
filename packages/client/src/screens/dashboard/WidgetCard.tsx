/**
 * One widget of a dashboard: a card with its title and its figure — a big number, a chart (with a
 * table view a click away) or a table — every figure a way into the list it counts. Over no rows
 * it says so ("No claims yet") instead of drawing an empty chart.
 */
import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type Entity, type Widget, type WidgetFigure } from '@ninefold/model';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { TextButton } from '../../components/buttons';
import { useI18n, useT } from '../../i18n/I18nProvider';
import { GroupChart } from './charts';
import { type ListTarget, groupFilters, listHref } from './click-through';
import { FigureTable } from './FigureTable';
import { type ChartPoint, chartPoints, emptyText, formatFigure, isEmptyFigure } from './figures';

export interface WidgetCardProps {
  readonly widget: Widget;
  readonly entity: Entity;
  /** The widget's figure; undefined while the figures load. */
  readonly figure: WidgetFigure | undefined;
  /** The list its figures open, or null when the viewer may open none. */
  readonly target: ListTarget | null;
  readonly locale: string;
}

/**
 * A widget's card.
 *
 * @example <WidgetCard widget={widget} entity={claim} figure={figure} target={target} locale="en-GB" />
 */
export function WidgetCard({ widget, entity, figure, target, locale }: WidgetCardProps) {
  const t = useT();
  const titleId = useId();
  const [asTable, setAsTable] = useState(false);
  const charted = widget.chart === 'bar' || widget.chart === 'line' || widget.chart === 'pie';
  const grouped = figure !== undefined && figure.groups !== null && !isEmptyFigure(figure);
  return (
    // on the page's own background, as lists are: links and axes keep their contrast in both schemes
    <Card
      withBorder
      bg="var(--mantine-color-body)"
      component="section"
      aria-labelledby={titleId}
      data-widget={widget.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" id={titleId}>
            {widget.title}
          </Title>
          {charted && grouped && (
            <TextButton
              size="xs"
              variant="default"
              aria-pressed={asTable}
              aria-label={t('dashboard.tableView', { title: widget.title })}
              onClick={() => setAsTable((shown) => !shown)}
            >
              {t('dashboard.table')}
            </TextButton>
          )}
        </Group>
        {figure === undefined ? (
          <Skeleton height={widget.chart === 'number' ? 48 : 200} aria-hidden />
        ) : (
          <Figure
            widget={widget}
            entity={entity}
            figure={figure}
            target={target}
            locale={locale}
            titleId={titleId}
            asTable={asTable}
          />
        )}
        {target !== null && !target.exact && (
          <Text size="xs" c="dimmed">
            {t('dashboard.opensWider', { screen: target.screen.title })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function Figure({
  widget,
  entity,
  figure,
  target,
  locale,
  titleId,
  asTable,
}: Required<WidgetCardProps> & { figure: WidgetFigure; titleId: string; asTable: boolean }) {
  const navigate = useNavigate();
  const { t, language } = useI18n();
  const wholeHref = target === null ? null : listHref(target.screen, {});
  if (isEmptyFigure(figure))
    return (
      <Stack gap={0}>
        {widget.chart === 'number' && figure.value === 0 && (
          <BigNumber text="0" href={wholeHref} titleId={titleId} />
        )}
        <Text c="dimmed">{emptyText(entity, t, language)}</Text>
      </Stack>
    );
  const points = chartPoints(entity, widget, figure, locale);
  const hrefOf = (point: ChartPoint): string | null => {
    const group = figure.groups?.[point.index];
    if (target === null || group === undefined) return wholeHref;
    return listHref(target.screen, groupFilters(entity, widget, group.key));
  };
  if (figure.groups === null) {
    const text = formatFigure(entity, widget, figure.value, locale);
    if (widget.chart !== 'table') return <BigNumber text={text} href={wholeHref} titleId={titleId} />;
    const whole = [{ index: 0, label: t('dashboard.all'), value: 0, text }];
    return (
      <FigureTable
        entity={entity}
        widget={widget}
        points={whole}
        labelledBy={titleId}
        hrefOf={() => wholeHref}
      />
    );
  }
  if (widget.chart === 'table' || widget.chart === 'number' || asTable)
    return (
      <FigureTable entity={entity} widget={widget} points={points} labelledBy={titleId} hrefOf={hrefOf} />
    );
  const open = (point: ChartPoint) => {
    const href = hrefOf(point);
    if (href !== null) void navigate(href);
  };
  return (
    <GroupChart
      title={widget.title}
      chart={widget.chart}
      points={points}
      {...(target === null ? {} : { onOpen: open })}
    />
  );
}

/** A whole figure as a big number, a link to its list when there is one. */
function BigNumber({ text, href, titleId }: { text: string; href: string | null; titleId: string }) {
  const style = { fontSize: 'var(--mantine-h1-font-size)', fontWeight: 700, lineHeight: 1.2 } as const;
  if (href === null) return <Text style={style}>{text}</Text>;
  return (
    <Anchor component={Link} to={href} style={style} aria-describedby={titleId} data-figure>
      {text}
    </Anchor>
  );
}
