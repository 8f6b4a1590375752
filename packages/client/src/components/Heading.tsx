/**
 * A heading as Mantine's `Title` draws one (its sizes, weights and line heights from the theme's
 * `--mantine-h*` variables), for the first page: the shell's product name, the loading screens'
 * and status pages' titles. `Title`'s code stays with the screens that use its other options
 * (decision 0069); the two look the same, side by side or one after the other.
 *
 * @example <Heading order={1}>{screen.title}</Heading>
 */
import { type CSSProperties, type ReactNode } from 'react';

type Level = 1 | 2 | 3 | 4 | 5 | 6;

export function Heading({
  order,
  size = order,
  lineClamp,
  className,
  children,
}: {
  order: Level;
  /** The size of another level (`Title`'s `size="h4"`). */
  size?: Level;
  /** Lines shown at most, the rest cut with an ellipsis. */
  lineClamp?: number;
  className?: string;
  children: ReactNode;
}) {
  const Tag = `h${order}` as const;
  const style = {
    '--title-fz': `var(--mantine-h${size}-font-size)`,
    '--title-fw': `var(--mantine-h${size}-font-weight)`,
    '--title-lh': `var(--mantine-h${size}-line-height)`,
    ...(lineClamp === undefined ? {} : { '--title-line-clamp': lineClamp }),
  } as CSSProperties;
  return (
    <Tag
      className={className === undefined ? 'nf-title' : `nf-title ${className}`}
      data-line-clamp={lineClamp === undefined ? undefined : true}
      style={style}
    >
      {children}
    </Tag>
  );
}
