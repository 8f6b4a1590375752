/**
 * Buttons of the first page without Mantine's Button and ActionIcon (whose loading state brings
 * the Loader and Transition with them): the same look (`buttons.css`), focus ring and press.
 */
import { type ComponentProps, type ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import './buttons.css';

interface Look {
  /** Mantine's `filled` (the default), `light` or `default`. */
  readonly variant?: 'filled' | 'light' | 'default' | undefined;
  /** Mantine's `sm` (the default) or `xs`. */
  readonly size?: 'sm' | 'xs' | undefined;
  readonly children: ReactNode;
}

const BUTTON = 'nf-button mantine-focus-auto mantine-active';

// a menu's target, say, adds its own classes
const classes = (own: string, given: unknown) =>
  typeof given === 'string' && given !== '' ? `${own} ${given}` : own;

function lookOf({ variant = 'filled', size = 'sm' }: Omit<Look, 'children'>) {
  return { 'data-variant': variant, 'data-size': size };
}

function Label({ children }: { children: ReactNode }) {
  return (
    <span className="nf-button-inner">
      <span className="nf-button-label">{children}</span>
    </span>
  );
}

/** A button drawn as Mantine's Button. */
export function TextButton({
  variant,
  size,
  children,
  className,
  ...props
}: Look & ComponentProps<'button'>) {
  return (
    <button type="button" {...lookOf({ variant, size })} {...props} className={classes(BUTTON, className)}>
      <Label>{children}</Label>
    </button>
  );
}

/** A link of the app drawn as Mantine's Button. */
export function ButtonLink({ variant, size, children, className, ...props }: Look & LinkProps) {
  return (
    <Link {...lookOf({ variant, size })} {...props} className={classes(BUTTON, className)}>
      <Label>{children}</Label>
    </Link>
  );
}

/** A square icon button drawn as Mantine's ActionIcon (subtle, gray, lg); give it an `aria-label`. */
export function IconButton({ className, ...props }: ComponentProps<'button'>) {
  return (
    <button
      type="button"
      {...props}
      className={classes('nf-icon-button mantine-focus-auto mantine-active', className)}
    />
  );
}
