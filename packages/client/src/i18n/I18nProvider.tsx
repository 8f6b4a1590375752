/**
 * Hands the app's language store (`i18n.ts`) to its components (decision 0067): `useT()` renders a
 * text, `useI18n()` tells the locale, its direction and how to change it. A change of locale
 * re-renders every component that asked, and sets the page's `lang` and `dir`.
 */
import { useDirection } from '@mantine/core';
import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from 'react';
import { type I18n } from './i18n';

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  useSyncExternalStore(i18n.subscribe, i18n.version, i18n.version);
  const { locale, dir } = i18n;
  useEffect(() => {
    document.documentElement.lang = locale;
    document.documentElement.dir = dir;
  }, [locale, dir]);
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/** The app's language store; re-renders the caller when the locale or its texts change. */
export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (i18n === null) throw new Error('useI18n is used outside I18nProvider.');
  useSyncExternalStore(i18n.subscribe, i18n.version, i18n.version);
  return i18n;
}

/**
 * The function that renders one of the app's texts.
 *
 * @example const t = useT(); <Button>{t('common.save')}</Button>
 */
export function useT(): I18n['t'] {
  const i18n = useI18n();
  return i18n.t;
}

/** Keeps Mantine's direction (inside its `DirectionProvider`) that of the locale. */
export function FollowDirection({ dir }: { dir: 'ltr' | 'rtl' }) {
  const { dir: current, setDirection } = useDirection();
  useEffect(() => {
    if (current !== dir) setDirection(dir);
  }, [current, dir, setDirection]);
  return null;
}
