/**
 * The hints of a field's diagnostics: the field type an alias from another language means (`int` is
 * `integer`), and where a constraint that does not apply to a field's type belongs (NF206).
 */
import { fieldTypesWhere } from '@ninefold/model';
import { orList } from './reader.js';

/** Field type names from other languages, and the type each means. */
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  str: 'string',
  int: 'integer',
  number: 'decimal',
  float: 'decimal',
  double: 'decimal',
  bool: 'boolean',
  timestamp: 'datetime',
  reference: 'ref',
  currency: 'money',
  textarea: 'text',
  object: 'json',
};

/**
 * Where a constraint belongs, for a field whose type it does not apply to.
 *
 * @example hintFor('currency') // 'only money fields have a currency: use `type: money`'
 */
export function hintFor(key: string): string {
  switch (key) {
    case 'min':
    case 'max':
      return `use \`min\`/\`max\` on ${orList(fieldTypesWhere((t) => t.bounds !== null))} fields, and \`minLength\`/\`maxLength\` on text`;
    case 'minLength':
    case 'maxLength':
      return 'use `minLength`/`maxLength` on text fields or lists, and `min`/`max` on numbers';
    case 'currency':
      return 'only money fields have a currency: use `type: money`';
    case 'to':
      return 'only ref fields point to an entity: use `type: ref`';
    case 'values':
      return 'only enum fields list their values: use `type: enum`';
    case 'valueLabels':
      return 'only enum fields label their values: use `type: enum` with `values`';
    case 'many':
      return 'lists are for ref, enum, file and image fields';
    case 'onDelete':
      return 'only ref fields say what deleting the record they point at does: use `type: ref`';
    case 'maxSize':
    case 'accept':
      return `only files have \`${key}\`: use \`type: file\` or \`type: image\``;
    case 'unique':
      return 'unique applies to single values that can be compared: not text, json, boolean or lists';
    default:
      return `remove \`${key}\` from this field`;
  }
}
