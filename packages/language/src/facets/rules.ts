import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { checkExpression } from '../expressions/check.js';
import { type ErrorCode, type Rule, type RuleTrigger } from '@ninefold/model';
import { type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { NAME_RULES } from './reader.js';

export const RULE_KEYS = ['id', 'entity', 'description', 'when', 'assert', 'error', 'fields', 'on'] as const;

/**
 * Reads `rules:`, a list of invariants over one entity's records. By default a rule applies on
 * create, on update and on every transition: it describes what a record must always satisfy.
 */
export function readRules(ctx: CompileContext, items: readonly YNode[]): Rule[] {
  const { reader, bag } = ctx;
  const rules: Rule[] = [];
  const ids = new Set<string>();
  const entityNames = Object.keys(ctx.entities);
  for (const item of items) {
    const m = reader.map(item, 'a rule', RULE_KEYS);
    if (m === null) continue;
    const idEntry = m.get('id');
    let id = '';
    if (idEntry === undefined) reader.missing(item.span, 'id', 'a rule', 'id: receipt-over-threshold');
    else {
      id = reader.string(idEntry.value, 'the id of a rule') ?? '';
      if (id !== '' && !NAME_RULES.rule.pattern.test(id)) {
        bag.report(
          'NF204',
          idEntry.value.span,
          `The rule id \`${id}\` does not follow the convention for rule ids.`,
          `write it in ${NAME_RULES.rule.example}`,
        );
      }
      if (ids.has(id))
        bag.report(
          'NF012',
          idEntry.value.span,
          `The rule id \`${id}\` is used twice.`,
          'give each rule its own id',
        );
      ids.add(id);
    }
    const where = `rule \`${id || '?'}\``;
    const entityEntry = m.get('entity');
    if (entityEntry === undefined) {
      reader.missing(item.span, 'entity', where, 'entity: Claim');
      continue;
    }
    const entityName = reader.string(entityEntry.value, `the entity of ${where}`);
    const entity = entityName === null ? undefined : own(ctx.entities, entityName);
    if (entity === undefined) {
      if (entityName !== null)
        bag.report(
          'NF301',
          entityEntry.value.span,
          `\`${entityName}\` is not a declared entity, so ${where} cannot apply to it.`,
          suggestion(entityName, entityNames, 'entity'),
        );
      continue;
    }
    const machine = ctx.states[entity.name];

    const on: RuleTrigger[] = [];
    const onEntry = m.get('on');
    if (onEntry === undefined) {
      on.push(
        'create',
        'update',
        ...Object.keys(machine?.transitions ?? {}).map((transition) => ({ transition })),
      );
    } else {
      for (const { name, span } of reader.names(onEntry.value, `\`on\` of ${where}`)) {
        if (name === 'create' || name === 'update') on.push(name);
        else if (machine && own(machine.transitions, name) !== undefined) on.push({ transition: name });
        else {
          const candidates = ['create', 'update', ...Object.keys(machine?.transitions ?? {})];
          bag.report(
            'NF307',
            span,
            `\`${name}\` is neither \`create\`, \`update\` nor a transition of \`${entity.name}\`.`,
            suggestion(name, candidates, 'transition'),
          );
        }
      }
    }
    // `old` exists when the rule can only run on a change to an existing record
    const scope = { entity, old: on.length > 0 && !on.includes('create') };

    const expr = (key: 'when' | 'assert') => {
      const e = m.get(key);
      if (e === undefined) return null;
      const source = reader.string(e.value, `\`${key}\` of ${where}`);
      if (source === null) return null;
      const what = key === 'when' ? `the condition of ${where}` : `the assertion of ${where}`;
      return checkExpression(ctx, ctx.envs, {
        source,
        span: e.value.span,
        raw: e.value.raw,
        scope,
        expect: 'bool',
        sql: false,
        what,
      });
    };
    const when = expr('when');
    if (m.get('assert') === undefined)
      reader.missing(item.span, 'assert', where, 'assert: "amount <= MAX_CLAIM"');
    const assert = expr('assert');

    let error: ErrorCode = 'E_VALIDATION';
    const errorEntry = m.get('error');
    if (errorEntry) {
      const code = reader.string(errorEntry.value, `the error of ${where}`);
      const def = code === null ? undefined : own(ctx.errors, code);
      if (code !== null && def === undefined) {
        const near = suggestion(code, Object.keys(ctx.errors), 'error code');
        bag.report(
          'NF305',
          errorEntry.value.span,
          `\`${code}\` is not in the error catalogue.`,
          `${near.endsWith('?') ? `${near} Or` : `${near}; or`} declare it under \`errors:\` in section 8`,
        );
      } else if (def !== undefined) error = def.code;
    }
    const fields: string[] = [];
    const fieldsEntry = m.get('fields');
    for (const { name, span } of fieldsEntry
      ? reader.names(fieldsEntry.value, `the fields of ${where}`)
      : []) {
      if (own(entity.fields, name) === undefined)
        bag.report(
          'NF302',
          span,
          `\`${entity.name}\` has no field \`${name}\` for ${where} to mark.`,
          suggestion(name, Object.keys(entity.fields), 'field'),
        );
      else fields.push(name);
    }
    const catalogueField = ctx.errors[error]?.field;
    if (fields.length === 0 && catalogueField && entity.fields[catalogueField]) fields.push(catalogueField);
    const description = m.get('description');
    if (assert !== null && id !== '') {
      rules.push({
        id,
        entity: entity.name,
        description: description
          ? (reader.string(description.value, `the description of ${where}`) ?? '')
          : '',
        when,
        assert,
        error,
        fields,
        on,
      });
    }
  }
  return rules;
}
