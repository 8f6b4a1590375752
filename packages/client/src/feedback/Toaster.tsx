/**
 * The toasts on screen: Mantine's Notification (the app has no `@mantine/notifications`, whose
 * store and portal we do not need: the shell holds the store and the place), at the bottom of the
 * window, newest last. Each one goes after a few seconds — not while the pointer is on it or the
 * keyboard in it, so that its link and its Undo stay within reach as long as someone is using them.
 * Loaded with the first toast, not with the first page.
 */
import '@mantine/core/styles/Notification.css';
import { Anchor, Button, Group, Notification, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../i18n/I18nProvider';
import { TOAST_MS, type Toast, type ToastStore } from './toasts';

export default function Toaster({ store, toasts }: { store: ToastStore; toasts: readonly Toast[] }) {
  return (
    <>
      {toasts.map((toast) => (
        <ToastView key={toast.id} store={store} toast={toast} />
      ))}
    </>
  );
}

function ToastView({ store, toast }: { store: ToastStore; toast: Toast }) {
  const [held, setHeld] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const t = useT();
  const own = store.handle(toast.id);
  // each change of the toast (a note, Undo's outcome) gives it its full time again
  useEffect(() => {
    if (held || undoing) return;
    const timer = setTimeout(() => store.handle(toast.id).dismiss(), TOAST_MS);
    return () => clearTimeout(timer);
  }, [held, undoing, store, toast]);

  async function undo() {
    if (toast.undo === undefined) return;
    setUndoing(true);
    try {
      const said = await toast.undo.run();
      own.update({ message: said, note: undefined, undo: undefined, tone: 'success' });
    } catch (error) {
      own.update({
        message: error instanceof Error ? error.message : t('first.undoFailed'),
        note: undefined,
        undo: undefined,
        tone: 'error',
      });
    } finally {
      setUndoing(false);
    }
  }

  return (
    <Notification
      // the region around the toasts is the live one; a toast is one group of text and buttons
      role="group"
      aria-label={t('first.toast')}
      data-toast={toast.tone}
      color={toast.tone === 'error' ? 'red' : 'teal'}
      withBorder
      onClose={own.dismiss}
      closeButtonProps={{ 'aria-label': t('first.dismiss') }}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {toast.message}
        {toast.note !== undefined && ` — ${toast.note}`}
      </Text>
      {(toast.link !== undefined || toast.undo !== undefined) && (
        <Group gap="sm" mt={4} wrap="wrap">
          {toast.link !== undefined && (
            <Anchor component={Link} to={toast.link.to} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('first.openRecord', { title: toast.link.label })}
            </Anchor>
          )}
          {toast.undo !== undefined && (
            <Button size="compact-sm" variant="light" loading={undoing} onClick={() => void undo()}>
              {toast.undo.label}
            </Button>
          )}
        </Group>
      )}
    </Notification>
  );
}
