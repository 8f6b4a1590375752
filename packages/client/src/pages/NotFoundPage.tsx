import { message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { StatusPage } from './StatusPage';
import { useT } from '../i18n/I18nProvider';

/** An address no screen answers, or a record that does not exist or may not be seen. */
export function NotFoundPage({ entity }: { entity?: string }) {
  const model = useModel();
  const t = useT();
  if (entity !== undefined) {
    const label = model.entities[entity]?.label ?? entity;
    return (
      <StatusPage
        title={t('first.notFound')}
        code="E_NOT_FOUND"
        message={message(model, 'E_NOT_FOUND', { entity: label.toLowerCase() })}
      />
    );
  }
  return (
    <StatusPage
      title={t('first.notFound')}
      code="E_ROUTE_NOT_FOUND"
      message={message(model, 'E_ROUTE_NOT_FOUND')}
    />
  );
}
