/**
 * Text written into the page safely: attribute and element text escaped, JSON that no text in it
 * can break out of its `<script>` element.
 */

/** Text for an HTML attribute or element: `&<>"'` as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON to write inside a `<script>` element: `<` escaped so that no text in it can close the
 * element, and the two line separators JavaScript once refused in strings.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
