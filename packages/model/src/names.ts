/**
 * Default words for names the spec gives no label: one rule, so that the compiler's labels and the
 * client's (a state, an enum value, a system field) read the same.
 */

/** Words from a camelCase, PascalCase or snake_case name: `spentOn` → `Spent on`, `HTTPRequest` → `Http request`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
