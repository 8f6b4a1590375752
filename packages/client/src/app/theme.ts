/**
 * The product's theme from the spec: its primary colour (a CSS colour or a Mantine colour name) and
 * its colour scheme.
 */
import {
  DEFAULT_THEME,
  type MantineColorsTuple,
  type MantineThemeOverride,
  createTheme,
} from '@mantine/core';
import { type Theme } from '@ninefold/spec/model';

/** Ten shades of a hex colour, lightest first, the given colour at index 6 as Mantine expects. */
export function shadesOf(hex: string): MantineColorsTuple | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (match === null) return null;
  let digits = match[1] ?? '';
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const rgb = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
  const mix = (target: number, amount: number) =>
    `#${rgb
      .map((c) =>
        Math.round(c + (target - c) * amount)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  return [
    mix(255, 0.92),
    mix(255, 0.8),
    mix(255, 0.62),
    mix(255, 0.45),
    mix(255, 0.3),
    mix(255, 0.15),
    mix(255, 0),
    mix(0, 0.12),
    mix(0, 0.24),
    mix(0, 0.36),
  ] as unknown as MantineColorsTuple;
}

export function productTheme(theme: Theme): MantineThemeOverride {
  const name = theme.primaryColor.trim();
  if (Object.hasOwn(DEFAULT_THEME.colors, name)) return createTheme({ primaryColor: name });
  const shades = shadesOf(name);
  if (shades === null) return createTheme({});
  return createTheme({
    primaryColor: 'product',
    colors: { product: shades },
    primaryShade: { light: 6, dark: 5 },
  });
}
