/**
 * Rows virtualised against the window's scroll, so that a list of 100k rows keeps a few dozen in
 * the DOM, the page scrolls as one (as phones expect), and the next page loads as the user nears
 * the end of what is loaded.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type MouseEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Rows left below the window when the next page is asked for. */
export const NEAR_END_ROWS = 10;

/**
 * @example const rows = useWindowRows({ count: records.length, estimate: 44, onNearEnd: fetchNextPage });
 */
export function useWindowRows<T extends HTMLElement>(options: {
  count: number;
  estimate: number;
  /** Asked once per approach to the end; the caller says when more can be loaded. */
  onNearEnd: () => void;
  canLoadMore: boolean;
}) {
  const { count, estimate, onNearEnd, canLoadMore } = options;
  const listRef = useRef<T>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // where the list starts on the page: the filters above it change height as they are used
  useLayoutEffect(() => {
    const element = listRef.current;
    if (element === null) return;
    const top = pageTop(element);
    if (top !== scrollMargin) setScrollMargin(top);
  });
  const virtualizer = useWindowVirtualizer<HTMLElement>({
    count,
    estimateSize: () => estimate,
    overscan: 8,
    scrollMargin,
    // an element not laid out yet measures 0: its estimate is the better guess
    measureElement: (element) => element.getBoundingClientRect().height || estimate,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (canLoadMore && count > 0 && last >= count - NEAR_END_ROWS) onNearEnd();
  }, [canLoadMore, count, last, onNearEnd]);

  const first = items[0];
  const end = items.at(-1);
  return {
    listRef,
    items,
    measure: virtualizer.measureElement,
    /** Space above the first rendered row and below the last, standing in for the rows not rendered. */
    before: first === undefined ? 0 : first.start - scrollMargin,
    after: end === undefined ? 0 : virtualizer.getTotalSize() - (end.end - scrollMargin),
  };
}

/** An element's distance from the top of the page, whatever the scroll (layout offsets, not the viewport). */
function pageTop(element: HTMLElement): number {
  let top = 0;
  for (let at: HTMLElement | null = element; at !== null; at = at.offsetParent as HTMLElement | null)
    top += at.offsetTop;
  return Math.round(top);
}

const INTERACTIVE = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"]';

/**
 * Opens a row's record on a click anywhere in the row that is not on a control of its own, or on
 * Enter when the row itself has the focus. Events from dialogs a row opened (portals) are ignored.
 */
export function rowActivation(open: () => void) {
  return {
    onClick(event: MouseEvent<HTMLElement>) {
      const target = event.target as Element;
      if (!event.currentTarget.contains(target)) return;
      if (target !== event.currentTarget && target.closest(INTERACTIVE) !== null) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey) return; // the title link opens new tabs
      if (window.getSelection()?.toString()) return; // selecting text to copy is not a click
      open();
    },
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      if (event.key === 'Enter' && event.target === event.currentTarget) {
        event.preventDefault();
        open();
      }
    },
  };
}
