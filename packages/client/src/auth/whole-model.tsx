/**
 * A signed-out visitor's page carries only the model of the pages before sign-in (decision 0027):
 * no screens, entities or roles. Once someone signs in, the app needs the whole model, which the
 * server gives only to a session: the page is loaded again, and start-up fetches the model when the
 * page it got (one the offline worker kept, say) is still the signed-out one.
 */
import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { useModel } from '../runtime/runtime';
import { useT } from '../i18n/I18nProvider';

/** Whether the app runs on the signed-out model and must load the whole one before going on. */
export function useNeedsWholeModel(signedIn: boolean): boolean {
  const model = useModel();
  return signedIn && model.signedOut === true;
}

/** Loads the page at `to` again, now as the signed-in user; a loader meanwhile. */
export function LoadWholeModel({ to }: { to: string }) {
  const t = useT();
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return (
    <Center h="100dvh">
      <Loader aria-label={t('first.loader')} />
    </Center>
  );
}
