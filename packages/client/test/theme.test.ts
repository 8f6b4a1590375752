import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastWithWhite, productTheme, shadesOf } from '../src/app/theme';

describe('the product’s theme', () => {
  it('keeps the spec’s colour as shade 6 and darkens the filled shade until white text reads at 4.5:1', () => {
    const dark = productTheme({ primaryColor: '#0b7285', colorScheme: 'auto' });
    expect(dark.colors?.['product']?.[6]).toBe('#0b7285');
    expect(dark.primaryShade).toEqual({ light: 6, dark: 6 });

    // bookings' green is too light for white text: a darker shade of it fills buttons
    const light = productTheme({ primaryColor: '#2f9e44', colorScheme: 'auto' });
    const shade = (light.primaryShade as { light: number }).light;
    expect(shade).toBeGreaterThan(6);
    expect(contrastWithWhite(light.colors?.['product']?.[shade] ?? '')).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite(light.colors?.['product']?.[shade - 1] ?? '')).toBeLessThan(4.5);
  });

  it('takes Mantine’s own colour names at a shade that reads on white, and ignores what is not a colour', () => {
    expect(productTheme({ primaryColor: 'violet', colorScheme: 'light' })).toMatchObject({
      primaryColor: 'violet',
      primaryShade: { light: 8, dark: 8 },
    });
    // teal's shade 8 reads at 3.9:1 on white: its 9 fills buttons and colours links
    expect(productTheme({ primaryColor: 'teal', colorScheme: 'light' })).toMatchObject({
      primaryColor: 'teal',
      primaryShade: { light: 9, dark: 9 },
    });
    expect(shadesOf('not a colour')).toBeNull();
    expect(shadesOf('#abc')?.[6]).toBe('#aabbcc');
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1);
    expect(contrastWithWhite('#000000')).toBeCloseTo(21);
  });

  it('gives every Mantine colour name a filled shade that white text reads on at 4.5:1', () => {
    for (const name of Object.keys(DEFAULT_THEME.colors)) {
      const theme = productTheme({ primaryColor: name, colorScheme: 'light' });
      const shade = (theme.primaryShade as { light: number }).light;
      const colour =
        theme.primaryColor === 'product'
          ? theme.colors?.['product']?.[shade]
          : DEFAULT_THEME.colors[name]?.[shade];
      expect(contrastWithWhite(colour ?? ''), name).toBeGreaterThanOrEqual(4.5);
    }
  });
});
