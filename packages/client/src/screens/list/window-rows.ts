/**
 * Rows virtualised against the window's scroll, so that a list of 100k rows keeps a few dozen in
 * the DOM, the page scrolls as one (as phones expect), and the next page loads as the user nears
 * the end of what is loaded.
 *
 * The first frame is cheap: the rows that fit the window at their estimated height, nothing
 * measured, nothing scrolled. Once it is painted, the rows are measured as they are rendered, the
 * list's place on the page is read, and the overscan is added.
 */
import { type VirtualItem, useWindowVirtualizer, windowScroll } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
  startTransition,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/** Rows left below the window when the next page is asked for. */
export const NEAR_END_ROWS = 10;
/** Rows rendered beyond each edge of the window once the first frame is on screen. */
const OVERSCAN = 8;

/**
 * The window a prerender (`prerender/server.tsx`, where there is none) renders a list's rows for.
 * Only its height counts: it is how many rows the page arrives with. 1,200 px is a tall desktop
 * window's: the rows below a smaller window's fold cost a few hundred bytes each, while a window
 * taller than this would show the rows missing below them as a gap until the app takes over. The
 * width only has to be a desktop's (the page hides the prerender on phones, which show cards).
 */
const PRERENDER_VIEWPORT = { width: 1440, height: 1200 };
const onServer = typeof window === 'undefined';

export interface WindowRows<T extends HTMLElement> {
  /** The element the rows start in (below any header), to place the virtual rows on the page. */
  readonly listRef: RefObject<T | null>;
  readonly items: readonly VirtualItem[];
  /** The ref of each rendered row; none in the first frame, whose rows are not measured. */
  readonly measure: ((element: HTMLElement | null) => void) | undefined;
  /** Space above the first rendered row and below the last, standing in for the rows not rendered. */
  readonly before: number;
  readonly after: number;
}

/**
 * @example const rows = useWindowRows({ count: records.length, estimate: 46, onNearEnd: fetchNextPage });
 */
export function useWindowRows<T extends HTMLElement>(options: {
  count: number;
  estimate: number;
  /** Asked once per approach to the end; the caller says when more can be loaded. */
  onNearEnd: () => void;
  canLoadMore: boolean;
}): WindowRows<T> {
  const { count, estimate, onNearEnd, canLoadMore } = options;
  const listRef = useRef<T>(null);
  const painted = usePainted();
  const [scrollMargin, setScrollMargin] = useState(0);
  // where the list starts on the page: the filters above it change height as they are used
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!painted || element === null) return;
    const top = pageTop(element);
    if (top !== scrollMargin) setScrollMargin(top);
  });
  const [start] = useState(() => ({ offset: onServer ? 0 : window.scrollY, written: false }));
  const virtualizer = useWindowVirtualizer<HTMLElement>({
    count,
    estimateSize: () => estimate,
    overscan: painted ? OVERSCAN : 0,
    scrollMargin,
    initialOffset: start.offset,
    // the window's size is known now: without it the first render would have no rows, and a second
    initialRect: onServer ? PRERENDER_VIEWPORT : { width: window.innerWidth, height: window.innerHeight },
    scrollToFn: (offset, scroll, instance) => {
      // on mounting, the virtualizer writes back the scroll it has just read: a write that moves
      // nothing, but forces a layout of the whole page before its first frame
      const first = !start.written;
      start.written = true;
      if (first && offset + (scroll.adjustments ?? 0) === start.offset) return;
      windowScroll(offset, scroll, instance);
    },
    // sizes come from the resize observer, after layout; an element read here would force one
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize[0];
      if (box !== undefined && box.blockSize > 0) return box.blockSize;
      const key = instance.options.getItemKey(instance.indexFromElement(element));
      return instance.itemSizeCache.get(key) ?? estimate;
    },
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
    measure: painted ? virtualizer.measureElement : undefined,
    before: first === undefined ? 0 : first.start - scrollMargin,
    after: end === undefined ? 0 : virtualizer.getTotalSize() - (end.end - scrollMargin),
  };
}

/**
 * False until the frame of the first commit has been painted, then true. `inTransition`: the update
 * that follows is a transition, which React renders in slices between frames (for what is heavier
 * to render than the first frame it follows).
 */
export function usePainted({ inTransition = false }: { inTransition?: boolean } = {}): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let task: ReturnType<typeof setTimeout> | undefined;
    const paint = () => setPainted(true);
    const after = () => (inTransition ? startTransition(paint) : paint());
    const frame = requestAnimationFrame(() => (task = setTimeout(after)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [inTransition]);
  return painted;
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

/**
 * Follows a plain link inside the app on a plain click; a click that opens a tab or a window, or
 * any other button, is left to the browser.
 */
export function followInApp(open: () => void) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open();
  };
}
