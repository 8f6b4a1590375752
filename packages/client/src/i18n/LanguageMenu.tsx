/**
 * The reader's language (decision 0067): the spec's locales by their own names, the current one
 * marked. A choice switches the app in place and, signed in, is saved on the account
 * (`PUT <basePath>/account/locale`), so that every device follows it; signed out, this browser
 * remembers it. Nothing shows when the spec offers one locale.
 */
import { Menu, NativeSelect } from '@mantine/core';
import { API_PATHS, type SessionAnswer, type SessionUser } from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useCallback } from 'react';
import { SESSION_KEY } from '../auth/session';
import { useHttp, useRuntime } from '../runtime/runtime';
import { useI18n, useT } from './I18nProvider';

/** A locale's name in its own language: "Français", "العربية". */
export function localeName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}

/** Switches the app to a locale and, signed in, saves it on the account. */
export function useChooseLocale(): (locale: string) => Promise<void> {
  const i18n = useI18n();
  const http = useHttp();
  const client = useQueryClient();
  return useCallback(
    async (locale: string) => {
      const switching = i18n.setLocale(locale);
      const user = client.getQueryData<SessionUser | null>(SESSION_KEY);
      if (user != null) {
        const answer = await http.request<SessionAnswer>('PUT', API_PATHS.accountLocale, {
          body: { locale },
        });
        client.setQueryData(SESSION_KEY, answer.user);
      }
      await switching;
    },
    [i18n, http, client],
  );
}

/** The offered locales; one or none means there is nothing to choose. */
function useOffered(): readonly string[] {
  // the spec's own list: the localized model keeps it
  return useRuntime().model.product.locales;
}

/** The language items of a menu (the user menu). */
export function LanguageItems() {
  const t = useT();
  const i18n = useI18n();
  const choose = useChooseLocale();
  const offered = useOffered();
  if (offered.length < 2) return null;
  return (
    <>
      <Menu.Label>{t('first.language')}</Menu.Label>
      {offered.map((tag) => {
        const current = tag === i18n.locale;
        return (
          <Menu.Item
            key={tag}
            lang={tag}
            aria-current={current ? 'true' : undefined}
            leftSection={current ? <IconCheck size={16} /> : <IconLanguage size={16} />}
            onClick={() => void choose(tag)}
          >
            {localeName(tag)}
          </Menu.Item>
        );
      })}
    </>
  );
}

/** A labelled select of the offered languages (the sign-in and account pages). */
export function LanguageSelect() {
  const t = useT();
  const i18n = useI18n();
  const choose = useChooseLocale();
  const offered = useOffered();
  if (offered.length < 2) return null;
  return (
    <NativeSelect
      label={t('first.language')}
      value={i18n.locale}
      data={offered.map((tag) => ({ value: tag, label: localeName(tag) }))}
      onChange={(event) => void choose(event.currentTarget.value)}
      w="max-content"
    />
  );
}
