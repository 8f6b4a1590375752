/**
 * Byte counts as a person reads them in the backup and restore messages (1.4 MiB).
 */

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A size in the largest binary unit that keeps it at 1 or more, one decimal.
 *
 * @example formatBytes(1536) // '1.5 KiB'
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
