import { Center, Loader } from '@mantine/core';
import { type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ErrorPanel } from '../components/ErrorPanel';
import { useSession } from './session';
import { LoadWholeModel, useNeedsWholeModel } from './whole-model';
import { useT } from '../i18n/I18nProvider';

/**
 * The signed-in part of the app. Without a session — never signed in, signed out, or expired —
 * it goes to sign-in, remembering where the user was so that sign-in brings them back.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const t = useT();
  // signed in elsewhere (another tab) while this page runs on the signed-out model
  const needsWholeModel = useNeedsWholeModel(session.data != null);
  if (session.isPending) {
    return (
      <Center h="100dvh">
        <Loader aria-label={t('first.loader')} />
      </Center>
    );
  }
  if (session.isError && session.data === undefined) {
    return (
      <Center h="100dvh" p="md">
        <ErrorPanel error={session.error} onRetry={() => void session.refetch()} />
      </Center>
    );
  }
  if (needsWholeModel)
    return <LoadWholeModel to={`${location.pathname}${location.search}${location.hash}`} />;
  if (session.data == null) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    const search = next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
    return <Navigate to={`/sign-in${search}`} replace />;
  }
  return children;
}
