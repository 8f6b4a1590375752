/**
 * Which columns a list shows: a menu of checkboxes, remembered per screen in this browser.
 */
import { Button } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { COLUMNS_BUTTON } from './columns-button';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { lazyComponent } from '../../runtime/lazy';
import { type ListColumn } from './columns';

const ColumnMenu = lazyComponent(() => import('./ColumnMenu').then((module) => module.default));

/**
 * The columns hidden on a screen, kept in localStorage under the product and the screen. A column
 * hidden until chosen (`optional`) is hidden unless the reader showed it, which is kept as `+name`.
 *
 * @example const [hidden, setHidden] = useHiddenColumns('Expense claims', 'my-claims', ['state']);
 */
export function useHiddenColumns(product: string, screen: string, optional: readonly string[] = []) {
  const [stored, setStored] = useLocalStorage<string[]>({
    key: `ninefold:${product}:${screen}:hidden-columns`,
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  const optionalKey = optional.join(',');
  const hidden = useMemo(() => {
    const choices = Array.isArray(stored) ? stored : [];
    const shown = new Set(choices.filter((c) => c.startsWith('+')).map((c) => c.slice(1)));
    const names = [
      ...choices.filter((c) => !c.startsWith('+')),
      ...optionalKey.split(',').filter((n) => n !== '' && !shown.has(n)),
    ];
    return new Set(names);
  }, [stored, optionalKey]);
  const setHidden = useCallback(
    (name: string, hide: boolean) =>
      setStored((previous) => {
        const next = new Set(Array.isArray(previous) ? previous : []);
        if (hide) {
          next.add(name);
          next.delete(`+${name}`);
        } else {
          next.delete(name);
          if (optionalKey.split(',').includes(name)) next.add(`+${name}`);
        }
        return [...next];
      }),
    [setStored, optionalKey],
  );
  return [hidden, setHidden] as const;
}

/**
 * The "Columns" button, and its menu once first opened, with its code: a closed popover still
 * costs its positioning hooks in the list's first frame, and its checkboxes the list's chunk.
 */
export function ColumnChooser(props: {
  columns: readonly ListColumn[];
  hidden: ReadonlySet<string>;
  onToggle(name: string, hide: boolean): void;
}) {
  const [wanted, setWanted] = useState(false);
  const t = useT();
  if (!wanted)
    return (
      <Button {...COLUMNS_BUTTON} onClick={() => setWanted(true)}>
        {t('list.columns')}
      </Button>
    );
  return (
    <Suspense
      fallback={
        <Button {...COLUMNS_BUTTON} loading>
          {t('list.columns')}
        </Button>
      }
    >
      <ColumnMenu {...props} />
    </Suspense>
  );
}
