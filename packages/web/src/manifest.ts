/**
 * The product as an installable app, made from its model: the web app manifest a phone reads when
 * the app is installed, and its icons — an SVG with the product's initial on its theme colour, and
 * the raster sizes installers ask for.
 */
import { type Model } from '@ninefold/model';
import { PNG } from 'pngjs';
import { escapeHtml } from './html.js';

/** The raster icon sizes the manifest lists, in pixels. */
export const ICON_SIZES = [192, 512] as const;

/** The web app manifest of the product. */
export function manifestOf(model: Model): Record<string, unknown> {
  const name = model.product.name;
  return {
    name,
    short_name: name.length <= 12 ? name : (name.split(/\s+/)[0] ?? name).slice(0, 12),
    description: model.product.summary,
    lang: model.product.locale,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: themeColor(model),
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ...ICON_SIZES.map((size, i) => ({
        src: `/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: i === ICON_SIZES.length - 1 ? 'any maskable' : 'any',
      })),
    ],
  };
}

/** The product's icon: its initial on its theme colour. */
export function iconOf(model: Model): string {
  const initial = escapeHtml((model.product.name.trim().charAt(0) || 'N').toUpperCase());
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" rx="96" fill="${escapeHtml(themeColor(model))}"/>` +
    `<text x="256" y="256" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" ` +
    `font-size="300" font-weight="700" fill="#fff">${initial}</text></svg>`
  );
}

/**
 * A square PNG of the product's theme colour: the raster icon installers ask for. The SVG icon
 * carries the product's initial; this one only has to be the right colour and size. Encoded by
 * pngjs (about 30 ms for both sizes, ten times the 3 ms of a hand-written encoder, which is why
 * the icons are made on their first request rather than at start-up).
 *
 * @example iconPng(model, 192) // a 192×192 PNG
 */
export function iconPng(model: Model, size: number): Buffer {
  const [r, g, b] = rgbOf(themeColor(model));
  const png = new PNG({ width: size, height: size });
  png.data.fill(Buffer.from([r, g, b, 255]));
  return PNG.sync.write(png, { colorType: 2 }); // RGB: an icon of one opaque colour needs no alpha
}

/** The spec's primary colour when it is a hex colour, else Mantine's blue. */
export function themeColor(model: Model): string {
  const color = model.product.theme.primaryColor;
  return /^#[0-9a-f]{3,8}$/i.test(color) ? color : '#228be6';
}

function rgbOf(hex: string): [number, number, number] {
  let digits = hex.replace('#', '').slice(0, 6);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16) || 0);
  return [r, g, b];
}
