/**
 * The second pass over entities: `owner`, `display` and `search` name fields, which are all known
 * once every entity is read.
 */
import { fieldTypesWhere } from '@ninefold/model';
import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { isFileField } from './field-files.js';
import { article } from './reader.js';
import { type TitleChoice, chooseTitle, fallbackTitle } from './record-titles.js';

const SEARCHABLE = fieldTypesWhere((t) => t.search);

/**
 * The second pass over entities: `owner`, `display` and `search` name fields, which are all known
 * now. Returns the entities with those keys resolved.
 */
export function finishEntities(ctx: CompileContext): void {
  const { reader, bag } = ctx;
  for (const [name, entity] of Object.entries(ctx.entities)) {
    const m = ctx.pendingEntityKeys.get(name);
    const fieldNames = Object.keys(entity.fields);
    const fieldRef = (e: YEntry, what: string): string | null => {
      const f = reader.string(e.value, `the ${what} of \`${name}\``);
      if (f === null) return null;
      if (own(entity.fields, f) === undefined && !['id', 'createdAt', 'updatedAt'].includes(f)) {
        bag.report(
          'NF302',
          e.value.span,
          `\`${name}\` has no field \`${f}\` to use as its ${what}.`,
          suggestion(f, fieldNames, 'field'),
        );
        return null;
      }
      return f;
    };

    let owner: string | null = null;
    const ownerEntry = m?.get('owner');
    if (ownerEntry) {
      owner = fieldRef(ownerEntry, 'owner');
      const f = owner === null ? undefined : own(entity.fields, owner);
      if (owner !== null && (f === undefined || f.type !== 'ref' || f.to !== 'User' || f.many)) {
        bag.report(
          'NF309',
          ownerEntry.value.span,
          `The owner of \`${name}\` must be a single ref to User; \`${owner}\` is ${f ? (f.many ? `a list of ${f.type}` : `a ${f.type}${f.to ? ` to ${f.to}` : ''}`) : 'a system field'}.`,
          `declare it as \`${owner}: { type: ref, to: User, default: user.id, readonly: true }\``,
        );
        owner = null;
      }
    }

    const displayEntry = m?.get('display');
    let choice: TitleChoice | null = displayEntry ? null : chooseTitle(entity);
    // after an error the fields it dropped may be the ones that name records: the warning would mislead
    if (choice !== null && !choice.human && !entity.builtin && !bag.hasErrors) {
      bag.report(
        'NF323',
        ctx.spans.get(name) ?? { start: 0, end: 0 },
        `No field of \`${name}\` can name its records, so they are named "${entity.label}" and the time they were created.`,
        `add a text field such as \`name\` or \`title\`, or set \`display:\` to the field that names a record`,
      );
    }
    let display = choice?.display ?? '';
    if (displayEntry) display = fieldRef(displayEntry, 'display field') ?? chooseTitle(entity).display;
    const shown = own(entity.fields, display);
    if (displayEntry && shown !== undefined && isFileField(shown)) {
      bag.report(
        'NF313',
        displayEntry.value.span,
        `\`${name}.${display}\` holds files, so it cannot be the title of \`${name}\`.`,
        'display a text field, like a name or a title; files show as thumbnails and links',
      );
      display = 'id';
    }
    if (displayEntry && display === 'id') {
      choice = fallbackTitle(entity);
      if (shown === undefined)
        bag.report(
          'NF324',
          displayEntry.value.span,
          `\`display: id\` would show a raw id as the name of every \`${name}\`; records are named "${entity.label}" and the time they were created instead.`,
          'display a field that names a record, like a name, a title or a number',
        );
    }
    const title = choice?.title ?? null;

    let search = fieldNames.filter((f) => SEARCHABLE.includes(entity.fields[f]!.type) && f === display);
    const searchEntry = m?.get('search');
    if (searchEntry) {
      search = [];
      for (const { name: f, span } of reader.names(searchEntry.value, `the search fields of \`${name}\``)) {
        const field = own(entity.fields, f);
        if (field === undefined) {
          bag.report(
            'NF302',
            span,
            `\`${name}\` has no field \`${f}\` to search.`,
            suggestion(f, fieldNames, 'field'),
          );
        } else if (!SEARCHABLE.includes(field.type)) {
          bag.report(
            'NF313',
            span,
            `\`${name}.${f}\` is ${article(field.type)} field; only text fields can be searched.`,
            `search fields of type ${SEARCHABLE.join(', ')}`,
          );
        } else search.push(f);
      }
    }
    ctx.entities[name] = { ...entity, owner, display, search, ...(title === null ? {} : { title }) };
  }
}
