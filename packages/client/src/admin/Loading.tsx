/**
 * The loader of the app's own pages while their data loads. Its own, not the shell's `PageLoader`:
 * a lazy chunk that imports from the first page's chunk keeps the bundler from merging the code
 * both share into the first page, which then loads in more, smaller pieces.
 */
import { Center, Loader } from '@mantine/core';
import { useT } from '../i18n/I18nProvider';

/** A loader centred in the page, named for assistive technology. */
export function Loading() {
  const t = useT();
  return (
    <Center py="xl">
      <Loader aria-label={t('admin.loading')} />
    </Center>
  );
}
