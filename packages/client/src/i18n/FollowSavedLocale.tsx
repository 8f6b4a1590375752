/**
 * The app follows the language saved on the account. Apart from the language menu (`LanguageMenu`,
 * Mantine's `Menu` and `NativeSelect`), whose code the first render does not need.
 */
import { useEffect } from 'react';
import { useSession } from '../auth/session';
import { useI18n } from './I18nProvider';

/**
 * Follows the language saved on the signed-in user's account: a session that says one (signing
 * in, another device's choice) switches the app to it.
 */
export function FollowSavedLocale() {
  const i18n = useI18n();
  const { data: user } = useSession();
  const saved = user?.locale ?? null;
  useEffect(() => {
    if (saved !== null && saved !== i18n.locale) void i18n.setLocale(saved);
  }, [saved, i18n]);
  return null;
}
