/**
 * A grouped figure drawn as a chart (recharts): bars, a line or a pie, each group a point that
 * opens the list it counts. The chart is named for screen readers with every group and its value
 * (`chartName`); the same figures are a table one click away (`FigureTable`). Colour never says
 * anything alone: bars and the line are one colour over labelled axes, and every slice of a pie
 * is labelled with its group and value.
 */
import { useElementSize } from '@mantine/hooks';
import { type WidgetChart } from '@ninefold/model';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Line,
  LineChart,
  Pie,
  PieChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { type ChartPoint, chartName } from './figures';

/** The chart's height; its width is its card's. */
const HEIGHT = 240;
/** The width the chart draws at before its card is measured (and where nothing measures, as in tests). */
const FIRST_WIDTH = 320;
const INK = 'var(--mantine-color-text)';
const PRIMARY = 'var(--mantine-primary-color-filled)';
const GRID = 'var(--mantine-color-default-border)';
/** A pie's slices, told apart by their labels as well as by these. */
const SLICES = ['blue', 'orange', 'teal', 'grape', 'yellow', 'cyan', 'pink', 'lime', 'indigo', 'red'].map(
  (name) => `var(--mantine-color-${name}-6)`,
);

export interface GroupChartProps {
  readonly title: string;
  readonly chart: Extract<WidgetChart, 'bar' | 'line' | 'pie'>;
  readonly points: readonly ChartPoint[];
  /** Opens the list of a group's rows; absent when the viewer may open no list of them. */
  readonly onOpen?: ((point: ChartPoint) => void) | undefined;
}

/**
 * A grouped figure as a chart, inside an element named for screen readers.
 *
 * @example <GroupChart title="Claims by state" chart="bar" points={points} onOpen={open} />
 */
export function GroupChart({ title, chart, points, onOpen }: GroupChartProps) {
  const data = points.map((point) => ({ ...point }));
  const open = (index: number | undefined) => {
    const point = index === undefined ? undefined : points[index];
    if (point !== undefined) onOpen?.(point);
  };
  const cursor = onOpen === undefined ? undefined : 'pointer';
  // measured here rather than by recharts' ResponsiveContainer, which draws nothing until it has
  // measured a width: the chart draws at once, and again at its card's width
  const { ref, width: measured } = useElementSize();
  const size = { width: measured > 0 ? Math.floor(measured) : FIRST_WIDTH, height: HEIGHT };
  return (
    <div
      ref={ref}
      role="img"
      aria-label={chartName(title, points)}
      data-chart={chart}
      style={{ height: HEIGHT }}
    >
      {chart === 'pie' ? (
        <PieChart {...size} accessibilityLayer={false}>
          <Pie
            data={data}
            dataKey="value"
            nameKey="label"
            outerRadius="70%"
            label={({ index }: { index?: number }) => {
              const point = index === undefined ? undefined : points[index];
              return point === undefined ? '' : `${point.label}: ${point.text}`;
            }}
            isAnimationActive={false}
            onClick={(_, index) => open(index)}
            cursor={cursor}
          >
            {data.map((point) => (
              <Cell
                key={point.index}
                fill={SLICES[point.index % SLICES.length] ?? PRIMARY}
                data-group={point.label}
              />
            ))}
          </Pie>
          <Tooltip formatter={(_, __, item) => (item.payload as ChartPoint).text} />
        </PieChart>
      ) : chart === 'line' ? (
        <LineChart
          {...size}
          data={data}
          accessibilityLayer={false}
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
        >
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={{ fill: INK }} />
          <YAxis tick={{ fill: INK }} width={56} />
          <Tooltip formatter={(_, __, item) => (item.payload as ChartPoint).text} />
          <Line
            dataKey="value"
            name={title}
            stroke={PRIMARY}
            strokeWidth={2}
            isAnimationActive={false}
            dot={(props: DotProps) => (
              <Dot key={props.index} {...props} r={4} cursor={cursor} onOpen={open} />
            )}
            activeDot={(props: DotProps) => <Dot {...props} r={6} cursor={cursor} onOpen={open} />}
          />
        </LineChart>
      ) : (
        <BarChart
          {...size}
          data={data}
          accessibilityLayer={false}
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
        >
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: INK }} />
          <YAxis tick={{ fill: INK }} width={56} />
          <Tooltip formatter={(_, __, item) => (item.payload as ChartPoint).text} cursor={{ fill: GRID }} />
          <Bar
            dataKey="value"
            name={title}
            fill={PRIMARY}
            isAnimationActive={false}
            onClick={(_, index) => open(index)}
            cursor={cursor}
          />
        </BarChart>
      )}
    </div>
  );
}

/** What recharts gives a line's point. */
interface DotProps {
  readonly cx?: number | undefined;
  readonly cy?: number | undefined;
  readonly index?: number | undefined;
}

/** A point of a line, which opens its group's list when clicked (the hovered point too). */
function Dot({
  cx,
  cy,
  index,
  r,
  cursor,
  onOpen,
}: DotProps & { r: number; cursor: string | undefined; onOpen: (index: number | undefined) => void }) {
  if (cx === undefined || cy === undefined) return null;
  return (
    <circle
      cx={cx}
      cy={cy}
      r={r}
      fill={PRIMARY}
      stroke="var(--mantine-color-body)"
      strokeWidth={2}
      cursor={cursor}
      className="nf-line-dot"
      onClick={() => onOpen(index)}
    />
  );
}
