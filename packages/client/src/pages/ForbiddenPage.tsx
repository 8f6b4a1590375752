import { message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { StatusPage } from './StatusPage';

/** A screen the signed-in role may not open. */
export function ForbiddenPage() {
  const model = useModel();
  return <StatusPage title="Not allowed" code="E_FORBIDDEN" message={message(model, 'E_FORBIDDEN')} />;
}
