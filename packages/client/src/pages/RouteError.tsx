import { Center } from '@mantine/core';
import { ErrorPanel } from '../components/ErrorPanel';

/** The last line of defence: a route that failed to render shows its error, never a blank page. */
export function RouteError({ error }: { error: unknown }) {
  return (
    <Center p="md" mih="50dvh">
      <ErrorPanel error={error} alwaysRetry onRetry={() => window.location.reload()} />
    </Center>
  );
}
