/**
 * The product's theme from the spec: its primary colour (a CSS colour or a Mantine colour name) and
 * its colour scheme.
 */
import {
  type AnchorProps,
  DEFAULT_THEME,
  type MantineColorsTuple,
  type MantineThemeOverride,
  type ModalProps,
  type PasswordInputProps,
  createTheme,
} from '@mantine/core';
import type { Theme } from '@ninefold/model';

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

/** The texts the theme gives Mantine's components, in the reader's language. */
export interface ThemeTexts {
  /** Every dialog's close button (`t('first.closeDialog')`); English without it. */
  readonly closeDialog?: string;
  /**
   * The eye button of every password input, a toggle (`aria-pressed` says whether the password
   * shows): `t('identity.showPassword')`, once the areas past the first are here; Mantine's English
   * without it (no password input shows before then: the screens that have one wait for them).
   */
  readonly showPassword?: string | undefined;
}

/**
 * What every product shares, for WCAG AA: links always underlined (a colour alone does not mark a
 * link in running text), and every dialog's close button and password input's eye named in the
 * reader's language. Plain objects, as `Modal.extend` would return them: naming the components
 * themselves would load the dialog's code with the shell.
 */
const accessibleWith = ({ closeDialog = 'Close dialog', showPassword }: ThemeTexts) =>
  ({
    components: {
      Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
      Modal: {
        defaultProps: { closeButtonProps: { 'aria-label': closeDialog } } satisfies Partial<ModalProps>,
      },
      ...(showPassword === undefined
        ? {}
        : {
            PasswordInput: {
              defaultProps: {
                visibilityToggleButtonProps: { 'aria-label': showPassword },
              } satisfies Partial<PasswordInputProps>,
            },
          }),
    },
  }) satisfies MantineThemeOverride;

/**
 * Mantine's theme for the spec's colours, its components' own texts in the reader's language.
 *
 * @example productTheme(model.product.theme, { closeDialog: i18n.t('first.closeDialog') })
 */
export function productTheme(theme: Theme, texts: ThemeTexts = {}): MantineThemeOverride {
  const accessible = accessibleWith(texts);
  const name = theme.primaryColor.trim();
  // Mantine's shade 6 of its own colours is too light for text on white: the first of 8 and 9 that
  // reads at 4.5:1 (teal's 8 does not); a colour with neither (yellow, lime, orange) is darkened
  // from its shade 6 like a spec's own colour
  const named = Object.hasOwn(DEFAULT_THEME.colors, name) ? DEFAULT_THEME.colors[name] : undefined;
  const namedShade = ([8, 9] as const).find((i) => named !== undefined && contrastWithWhite(named[i]) >= 4.5);
  if (namedShade !== undefined)
    return createTheme({
      ...accessible,
      primaryColor: name,
      primaryShade: { light: namedShade, dark: namedShade },
    });
  const shades = shadesOf(named?.[6] ?? name);
  if (shades === null) return createTheme({ ...accessible, primaryShade: { light: 8, dark: 8 } });
  // the spec's colour itself is shade 6; where white text on it would not reach 4.5:1, a darker one;
  // a colour so light that even shade 9 does not (yellow) gets a shade 9 dark enough
  let colors = shades;
  let readable = ([6, 7, 8, 9] as const).find((i) => contrastWithWhite(shades[i]) >= 4.5);
  if (readable === undefined) {
    let amount = 0.4;
    while (contrastWithWhite(darken(shades[6], amount)) < 4.5) amount += 0.04;
    colors = [...shades.slice(0, 9), darken(shades[6], amount)] as unknown as MantineColorsTuple;
    readable = 9;
  }
  return createTheme({
    ...accessible,
    primaryColor: 'product',
    colors: { product: colors },
    // filled buttons carry white text in both schemes
    primaryShade: { light: readable, dark: readable },
  });
}

/** A `#rrggbb` colour mixed with black by `amount` (0 keeps it, 1 is black). */
function darken(hex: string, amount: number): string {
  const channel = (i: number) =>
    Math.round(parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) * (1 - Math.min(amount, 1)));
  return `#${[0, 1, 2].map((i) => channel(i).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG's contrast ratio of white on a `#rrggbb` colour. */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}
