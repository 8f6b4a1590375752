/**
 * The spec's own words and their translations (decision 0068). A spec's texts (labels, titles,
 * messages, prose) are named by flat dotted keys that mirror where the spec writes them —
 * `entities.Claim.label`, `states.Claim.transitions.submit.confirm`, `errors.E_OVER_LIMIT.message` —
 * so that a translation file, the compiler's check of it, `check`'s warnings of a missing text and
 * `localizeModel` all speak of the same key. One walk over the model names them all: what it
 * visits is exactly what can be translated.
 */
import { BUILTIN_USER_FIELDS } from './builtin-user.js';
import { type Entity, type FacetKey, type Field, type Model, type Role } from './model.js';

/** The translations of a spec, by locale (`fr-FR`), then by key (`entities.Claim.label`). */
export type SpecTranslations = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Gives the text shown for a key: the source text, or its translation. */
type Word = (key: string, text: string) => string;

/**
 * Every translatable text of a model by key, in the spec's order; empty texts left out (nothing to
 * translate). The built-in `User` entity and the built-in error messages are the app's, not the
 * spec's: they come from the shipped catalogues, unless the spec reworded a message.
 *
 * @example specTexts(model)['entities.Claim.label'] // 'Claim'
 */
export function specTexts(model: Model): Record<string, string> {
  const texts: Record<string, string> = {};
  walk(model, (key, text) => {
    if (text.trim() !== '') texts[key] = text;
    return text;
  });
  return texts;
}

/**
 * The model with each text whose key `words` holds replaced by it; every other text unchanged.
 *
 * @example translateModel(model, { 'entities.Claim.label': 'Note de frais' })
 */
export function translateModel(model: Model, words: Readonly<Record<string, string>>): Model {
  if (Object.keys(words).length === 0) return model;
  return walk(model, (key, text) => (Object.hasOwn(words, key) && text.trim() !== '' ? words[key]! : text));
}

/**
 * The translations of a locale: its own, else those of a locale of the same language (`fr-CA` reads
 * `fr-FR`'s); none for the default locale, whose words are the spec's.
 */
export function translationsFor(model: Model, locale: string): Readonly<Record<string, string>> {
  const all = model.translations;
  if (all === undefined) return {};
  const exact = Object.keys(all).find((tag) => tag.toLowerCase() === locale.toLowerCase());
  if (exact !== undefined) return all[exact]!;
  const language = locale.split(/[-_]/)[0]!.toLowerCase();
  if (language === model.product.locale.split(/[-_]/)[0]!.toLowerCase()) return {};
  const same = Object.keys(all).find((tag) => tag.split(/[-_]/)[0]!.toLowerCase() === language);
  return same === undefined ? {} : all[same]!;
}

/**
 * The built-in `User` with the labels of its `roles` values those of the roles (translated with
 * them: `roles.<name>.label`), so that a role reads the same on a user as in the roles' list.
 */
export function withRoleLabels(entity: Entity, roles: Readonly<Record<string, Role>>): Entity {
  const field = entity.fields['roles'];
  if (entity.name !== 'User' || field?.valueLabels === undefined) return entity;
  const valueLabels = Object.fromEntries(
    Object.entries(field.valueLabels).map(([v, label]) => [v, roles[v]?.label ?? label]),
  );
  return { ...entity, fields: { ...entity.fields, roles: { ...field, valueLabels } } };
}

/** Rebuilds the model, each text passed through `word` with its key. */
function walk(model: Model, word: Word): Model {
  const map = <T, U>(record: Readonly<Record<string, T>>, f: (name: string, value: T) => U) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, f(name, value)]));
  const product = {
    ...model.product,
    name: word('product.name', model.product.name),
    summary: word('product.summary', model.product.summary),
    audience: model.product.audience.map((text, i) => word(`product.audience.${i}`, text)),
  };
  const roles = map(model.roles, (name, role) => ({
    ...role,
    label: word(`roles.${name}.label`, role.label),
    description: word(`roles.${name}.description`, role.description),
  }));
  const entities = map(model.entities, (name, entity) => {
    const at = `entities.${name}`;
    const fieldWords = (f: string, field: Field): Field => ({
      ...field,
      label: word(`${at}.fields.${f}.label`, field.label),
      help: word(`${at}.fields.${f}.help`, field.help),
      ...(field.valueLabels === undefined
        ? {}
        : {
            // a value with a dot in it cannot be a key's part, so it keeps its label
            valueLabels: map(field.valueLabels, (v, label) =>
              v.includes('.') ? label : word(`${at}.fields.${f}.values.${v}`, label),
            ),
          }),
    });
    // the built-in User's own words are the shipped catalogues' (localize.ts); the fields a spec
    // adds to it are the spec's, translated by its files
    if (entity.builtin) {
      const fields = map(entity.fields, (f, field) =>
        BUILTIN_USER_FIELDS.has(f) ? field : fieldWords(f, field),
      );
      return withRoleLabels({ ...entity, fields }, roles);
    }
    return {
      ...entity,
      label: word(`${at}.label`, entity.label),
      pluralLabel: word(`${at}.pluralLabel`, entity.pluralLabel),
      description: word(`${at}.description`, entity.description),
      fields: map(entity.fields, fieldWords),
      children: map(entity.children, (c, child) => ({
        ...child,
        label: word(`${at}.children.${c}.label`, child.label),
      })),
    };
  });
  const states = map(model.states, (name, machine) => ({
    ...machine,
    states: map(machine.states, (s, state) => ({
      ...state,
      label: word(`states.${name}.states.${s}.label`, state.label),
    })),
    transitions: map(machine.transitions, (t, transition) => ({
      ...transition,
      label: word(`states.${name}.transitions.${t}.label`, transition.label),
      confirm:
        transition.confirm === null
          ? null
          : word(`states.${name}.transitions.${t}.confirm`, transition.confirm),
    })),
  }));
  const screens = model.screens.map((screen) => ({
    ...screen,
    title: word(`screens.${screen.id}.title`, screen.title),
    body: word(`screens.${screen.id}.body`, screen.body),
    widgets: screen.widgets.map((widget) => ({
      ...widget,
      title: word(`screens.${screen.id}.widgets.${widget.id}.title`, widget.title),
    })),
  }));
  const nav = model.nav.map((item) => ({ ...item, label: word(`nav.${item.screen}.label`, item.label) }));
  const notifications = map(model.notifications, (name, n) => ({
    ...n,
    subject: word(`notifications.${name}.subject`, n.subject),
    message: word(`notifications.${name}.message`, n.message),
  }));
  // a built-in message is the app's (the shipped catalogues translate it) unless the spec reworded it
  const errors = map(model.errors, (code, def) =>
    def.builtin && def.reworded !== true
      ? def
      : { ...def, message: word(`errors.${code}.message`, def.message) },
  );
  const facets = map(model.facets, (facet, f) => ({
    ...f,
    // a heading the spec wrote comes with its prose; the default titles are the app's
    title: f.prose === '' ? f.title : word(`facets.${facet}.title`, f.title),
    prose: word(`facets.${facet}.prose`, f.prose),
  })) as Record<FacetKey, Model['facets'][FacetKey]>;
  return { ...model, product, entities, states, roles, screens, nav, notifications, errors, facets };
}
