import { message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { StatusPage } from './StatusPage';
import { useT } from '../i18n/I18nProvider';

/** A screen the signed-in role may not open. */
export function ForbiddenPage() {
  const model = useModel();
  const t = useT();
  return (
    <StatusPage title={t('first.forbidden')} code="E_FORBIDDEN" message={message(model, 'E_FORBIDDEN')} />
  );
}
