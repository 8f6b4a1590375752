/**
 * A model in one of its locales (decision 0067): what the app and the server hand to everything that
 * shows or says something, so that labels, titles and messages are the reader's language and numbers
 * and dates their locale's, with no component asking which. The spec's own words come from its
 * translations (decision 0068); the built-in catalogue's messages from the shipped ones, passed in
 * (the app loads them on demand, the server holds them all).
 */
import { type Model } from './model.js';
import { translateModel, translationsFor } from './spec-texts.js';

/**
 * The model as a reader of `locale` meets it: the spec's words in that locale where its translation
 * files give them (the default locale's otherwise), the built-in messages in its language, its
 * numbers and dates. The same model when nothing changes.
 *
 * @example const shown = localizeModel(model, 'fr-FR', builtinMessagesFr);
 */
export function localizeModel(
  model: Model,
  locale: string,
  builtinMessages: Readonly<Record<string, string>> = {},
): Model {
  const shipped = Object.keys(builtinMessages).length > 0;
  const errors = shipped ? withBuiltins(model, builtinMessages) : model.errors;
  const entities = shipped ? withBuiltinUser(model, builtinMessages) : model.entities;
  const words = model.product.locale === locale ? {} : translationsFor(model, locale);
  if (model.product.locale === locale && !shipped) return model;
  // the spec's words last: a message the spec reworded is the spec's, translated by its own file
  return translateModel({ ...model, product: { ...model.product, locale }, errors, entities }, words);
}

/**
 * The entities with the built-in `User`'s label, description and own fields' labels in the reader's
 * language (`User.label`, `User.fields.email.label`… of the shipped catalogue); the fields a spec
 * adds to it are the spec's, and keep its words.
 */
function withBuiltinUser(model: Model, messages: Readonly<Record<string, string>>): Model['entities'] {
  const user = model.entities['User'];
  if (user?.builtin !== true) return model.entities;
  const word = (key: string, text: string) => messages[`User.${key}`] ?? text;
  const fields = Object.fromEntries(
    Object.entries(user.fields).map(([name, field]) => [
      name,
      { ...field, label: word(`fields.${name}.label`, field.label) },
    ]),
  );
  return {
    ...model.entities,
    User: {
      ...user,
      label: word('label', user.label),
      pluralLabel: word('pluralLabel', user.pluralLabel),
      description: word('description', user.description),
      fields,
    },
  };
}

/** The catalogue with the built-in codes the spec did not reword in the reader's language. */
function withBuiltins(model: Model, messages: Readonly<Record<string, string>>): Model['errors'] {
  const errors: Record<string, Model['errors'][string]> = {};
  for (const [code, def] of Object.entries(model.errors)) {
    const translated = def.builtin ? messages[code] : undefined;
    errors[code] = translated === undefined || def.reworded === true ? def : { ...def, message: translated };
  }
  return errors;
}
