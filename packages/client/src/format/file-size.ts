/**
 * A file's size as people read it, in the product's locale: `820 bytes`, `12.5 kB`, `3.2 MB`.
 * Kilo, mega and giga are powers of 1024 here, as in the spec's `maxSize: 10MB` (decision 0050),
 * so the limit a field states and the size shown beside a file agree.
 */

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(locale: string, unit: (typeof UNITS)[number]): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: unit === 'byte' ? 'long' : 'short',
      maximumFractionDigits: 1,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * A number of bytes in the largest unit that keeps it at least 1, to one decimal.
 *
 * @example formatFileSize(1536, 'en') // '1.5 kB'
 * @example formatFileSize(10 * 1024 * 1024, 'fr') // '10 Mo'
 */
export function formatFileSize(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let step = 0;
  while (value >= 1024 && step < UNITS.length - 1) {
    value /= 1024;
    step++;
  }
  return formatOf(locale, UNITS[step]!).format(step === 0 ? Math.round(value) : value);
}
