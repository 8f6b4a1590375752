/**
 * Rows that leave their list after a transition fired from them: the toast of the transition says
 * so once the list is read again, rather than the row vanishing without a word (decision 0066).
 * "Claim moved to Approved — no longer in this list", with the link to it still there.
 */
import { type ApiRecord } from '@ninefold/model';
import { useCallback, useEffect, useRef } from 'react';
import { type ToastHandle } from '../../feedback/toasts';

/** The list's pages as read: a new object each time they are read again. */
type Pages = object | undefined;

/**
 * Watches records whose transition a row fired; when the list has been read again since, a record
 * not among its rows gets a note in its toast.
 *
 * @example const watch = useLeavingRows(loaded, list.data, list.isFetching, list.hasNextPage);
 *          <TransitionActions onDone={(next, toast) => watch(next.id, toast)} … />
 */
export function useLeavingRows(
  loaded: readonly ApiRecord[],
  pages: Pages,
  fetching: boolean,
  morePages: boolean,
): (id: string, toast: ToastHandle) => void {
  const watched = useRef(new Map<string, { readonly toast: ToastHandle; readonly seen: Pages }>());
  const current = useRef(pages);
  current.current = pages;
  useEffect(() => {
    if (fetching) return;
    for (const [id, { toast, seen }] of watched.current) {
      if (pages === seen) continue; // not read again yet
      watched.current.delete(id);
      if (loaded.some((record) => record.id === id)) continue;
      // a record past the rows loaded may still be in the list, further down
      toast.update({ note: morePages ? 'not among the rows shown here' : 'no longer in this list' });
    }
  }, [loaded, pages, fetching, morePages]);
  return useCallback((id, toast) => {
    watched.current.set(id, { toast, seen: current.current });
  }, []);
}
