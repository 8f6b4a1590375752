/**
 * A translated sentence with elements inside it (a link, a `<time>`): the catalogue keeps the whole
 * sentence, so each language orders its parts as it needs, and the elements go where its
 * arguments are. `t` renders text only; each element's argument is filled with a marker, and the
 * text is cut at the markers.
 */
import { Fragment, type ReactNode } from 'react';
import { type MessageKey } from './catalogue';
import { type I18n } from './i18n';

const MARK = '\u{E000}'; // a private-use character: in no catalogue and no spec word

/**
 * The sentence of `key` with `elements` where their arguments are.
 *
 * @example richText(t, 'detail.createdBy', { at: <time>…</time>, by: <RefLink … /> })
 */
export function richText(
  t: I18n['t'],
  key: MessageKey,
  elements: Readonly<Record<string, ReactNode>>,
  values: Readonly<Record<string, string | number>> = {},
): ReactNode {
  const names = Object.keys(elements);
  const markers = Object.fromEntries(names.map((name, index) => [name, `${MARK}${index}${MARK}`]));
  const text = t(key, { ...values, ...markers });
  return text.split(new RegExp(`${MARK}(\\d+)${MARK}`)).map((piece, index) =>
    // odd pieces are the captured element numbers
    index % 2 === 1 ? <Fragment key={index}>{elements[names[Number(piece)] ?? '']}</Fragment> : piece,
  );
}
