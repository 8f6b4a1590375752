/**
 * Asks before unsaved changes are lost: a dialog when the user navigates inside the app, the
 * browser's own question when they close or reload the tab.
 */
import { Button, Group, Modal, Text } from '@mantine/core';
import { type RefObject, useEffect } from 'react';
import { useLocation } from 'react-router';
import { useNavigationBlocker } from '../../app/AppRouter';
import { useT } from '../../i18n/I18nProvider';

/**
 * @param dirty whether there is something to lose
 * @param leaving set to true just before navigating away on purpose (after a save)
 */
export function LeaveGuard({ dirty, leaving }: { dirty: boolean; leaving: RefObject<boolean> }) {
  const here = useLocation();
  const t = useT();
  const blocker = useNavigationBlocker(
    (next) => dirty && !leaving.current && here.pathname !== next.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = ''; // older browsers ask only when this is set
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty, leaving]);

  return (
    <Modal
      opened={blocker.blocked}
      onClose={() => blocker.reset()}
      title={t('form.leaveTitle')}
      centered
      transitionProps={{ duration: 0 }}
    >
      <Text size="sm">{t('form.leaveBody')}</Text>
      <Group justify="flex-end" mt="md" wrap="wrap">
        <Button variant="default" onClick={() => blocker.reset()} data-autofocus>
          {t('form.stay')}
        </Button>
        {/* shade 8 whatever the theme's primary shade: white on red's shade 6 reads at 3.3:1 */}
        <Button color="red.8" onClick={() => blocker.proceed()}>
          {t('form.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
