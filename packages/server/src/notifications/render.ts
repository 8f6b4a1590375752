/**
 * Rendering a notification's subject and message for one recipient, through the engine's
 * `renderNotificationText` — the renderer whose names the compiler checks (decision 0030) — over the
 * record's fields, the spec's constants and `user.*` (the person who made the change). Only the
 * values the recipient may read are given: every other argument renders as empty text, so a masked
 * field can never reach a notification.
 */
import { renderNotificationText, type WireRecord } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';

/** The values a recipient may read: the record's fields, and the actor's `id`, `name`, `email`. */
export interface RenderValues {
  readonly record: Readonly<Record<string, Value | undefined>>;
  readonly user: Readonly<Record<string, Value | undefined>>;
}

/**
 * Renders an ICU template in the model's locale — the recipient's: `deliver.ts` passes the model as
 * a reader of their language meets it (`modelIn`) — with the recipient's values. An argument without
 * a value (a field they may not read, an empty field, a name the record does not have) renders as
 * empty text; a template that cannot be rendered at all comes back as written.
 *
 * @example renderTemplate(model, '{user.name} answered {subject}', { record: { subject: 'Printer' }, user: { name: 'Ann' } }) // 'Ann answered Printer'
 */
export function renderTemplate(model: Model, template: string, values: RenderValues): string {
  const text = (name: string) => {
    const value = values.user[name];
    return typeof value === 'string' ? value : '';
  };
  const actor = { id: text('id'), name: text('name'), email: text('email') };
  return renderNotificationText(model, template, values.record as WireRecord, actor, model.product.locale);
}
