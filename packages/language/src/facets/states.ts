import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { celTypeOf, humanize, specErrorCode } from '@ninefold/model';
import { checkExpression } from '../expressions/check.js';
import { type Expr, type State, type StateMachine, type Transition } from '@ninefold/model';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { isFileField } from './field-files.js';
import { LIFECYCLE_EVENTS } from './events.js';
import { checkName } from './reader.js';
import { readTimer } from './timers.js';

export const MACHINE_KEYS = ['initial', 'states', 'transitions'] as const;
export const STATE_KEYS = ['label', 'terminal', 'color'] as const;
export const TRANSITION_KEYS = [
  'from',
  'to',
  'roles',
  'when',
  'error',
  'require',
  'set',
  'confirm',
  'label',
  'after',
  'at',
] as const;
/** Words that name record operations, so they cannot name a transition. */
const RESERVED_TRANSITIONS = ['create', 'update', 'delete', 'read', 'transition'];

/**
 * Reads `states:`, one machine per entity. States may be listed in `states:` or only mentioned by
 * transitions; either way each is checked to be reachable. Role names are checked after `roles:`.
 */
export function readStates(ctx: CompileContext, entries: readonly YEntry[]): Map<string, YEntry> {
  const { reader, bag } = ctx;
  const rolesToCheck = new Map<string, YEntry>();
  for (const entry of entries) {
    const entity = own(ctx.entities, entry.key);
    if (entity === undefined || entity.builtin) {
      bag.report(
        'NF301',
        entry.keySpan,
        entity?.builtin
          ? 'The built-in `User` entity cannot have a state machine.'
          : `\`${entry.key}\` is not a declared entity, so it cannot have a state machine.`,
        suggestion(
          entry.key,
          Object.keys(ctx.entities).filter((e) => e !== 'User'),
          'entity',
        ),
      );
      continue;
    }
    const m = reader.map(entry.value, `the state machine of \`${entry.key}\``, MACHINE_KEYS);
    if (m === null) continue;
    const states: Record<string, State> = {};
    const stateSpans = new Map<string, YEntry['keySpan']>();
    const statesEntry = m.get('states');
    if (statesEntry) {
      // `states: [draft, submitted]` or `states: { draft: { label: Draft } }`
      if (statesEntry.value.kind === 'seq') {
        for (const { name, span } of reader.names(statesEntry.value, `the states of \`${entry.key}\``)) {
          if (!checkName(bag, 'state', { key: name, keySpan: span, value: statesEntry.value })) continue;
          states[name] = { name, label: humanize(name), terminal: false, color: null };
          stateSpans.set(name, span);
        }
      } else {
        for (const s of reader.dict(statesEntry.value, `the states of \`${entry.key}\``)) {
          if (!checkName(bag, 'state', s)) continue;
          const sm =
            s.value.kind === 'scalar' && s.value.value === null
              ? new Map<string, YEntry>()
              : reader.map(s.value, `state \`${s.key}\``, STATE_KEYS);
          if (sm === null) continue;
          const label = sm.get('label');
          const terminal = sm.get('terminal');
          const color = sm.get('color');
          states[s.key] = {
            name: s.key,
            label: label
              ? (reader.string(label.value, `the label of state \`${s.key}\``) ?? humanize(s.key))
              : humanize(s.key),
            terminal: terminal
              ? (reader.boolean(terminal.value, `\`terminal\` of state \`${s.key}\``) ?? false)
              : false,
            color: color ? reader.string(color.value, `the color of state \`${s.key}\``) : null,
          };
          stateSpans.set(s.key, s.keySpan);
        }
      }
    }
    const declaredStates = statesEntry !== undefined;
    const stateRef = (name: string, span: YEntry['keySpan'], where: string): boolean => {
      if (own(states, name) !== undefined) return true;
      if (!declaredStates && /^[a-z][a-zA-Z0-9_]*$/.test(name)) {
        states[name] = { name, label: humanize(name), terminal: false, color: null };
        stateSpans.set(name, span);
        return true;
      }
      bag.report(
        'NF303',
        span,
        `\`${name}\` is not a state of \`${entry.key}\`, so ${where} cannot use it.`,
        suggestion(name, Object.keys(states), 'state'),
      );
      return false;
    };

    const initialEntry = m.get('initial');
    let initial = '';
    if (initialEntry === undefined)
      reader.missing(entry.keySpan, 'initial', `the state machine of \`${entry.key}\``, 'initial: draft');
    else {
      const name = reader.string(initialEntry.value, `the initial state of \`${entry.key}\``);
      if (name !== null && stateRef(name, initialEntry.value.span, 'the initial state')) initial = name;
    }

    const wildcards = new Set<string>();
    const transitions: Record<string, Transition> = {};
    const pendingExprs: (() => void)[] = [];
    const transitionsEntry = m.get('transitions');
    for (const t of transitionsEntry
      ? reader.dict(transitionsEntry.value, `the transitions of \`${entry.key}\``)
      : []) {
      if (!checkName(bag, 'transition', t)) continue;
      if (RESERVED_TRANSITIONS.includes(t.key)) {
        bag.report(
          'NF209',
          t.keySpan,
          `\`${t.key}\` names a record operation and cannot name a transition.`,
          `call it something else, like \`${t.key}Request\``,
        );
        continue;
      }
      if ((LIFECYCLE_EVENTS as readonly string[]).includes(t.key)) {
        // `Claim.created` in a notification's `on:` must name one change only
        bag.report(
          'NF209',
          t.keySpan,
          `\`${t.key}\` names a change every record has (the event \`${entry.key}.${t.key}\`) and cannot name a transition.`,
          'call it something else, like `markCreated`',
        );
        continue;
      }
      const where = `transition \`${entry.key}.${t.key}\``;
      const tm = reader.map(t.value, where, TRANSITION_KEYS);
      if (tm === null) continue;
      const from: string[] = [];
      const fromEntry = tm.get('from');
      if (fromEntry === undefined) reader.missing(t.keySpan, 'from', where, 'from: draft');
      else {
        for (const { name, span } of reader.names(fromEntry.value, `\`from\` of ${where}`)) {
          if (name === '*') wildcards.add(t.key);
          else if (stateRef(name, span, where)) {
            if (states[name]!.terminal) {
              bag.report(
                'NF314',
                span,
                `State \`${name}\` is marked terminal, but ${where} leaves it.`,
                `remove \`terminal: true\` from \`${name}\`, or take \`${name}\` out of \`from\``,
              );
            }
            from.push(name);
          }
        }
      }
      let to = '';
      const toEntry = tm.get('to');
      if (toEntry === undefined) reader.missing(t.keySpan, 'to', where, 'to: submitted');
      else {
        const name = reader.string(toEntry.value, `\`to\` of ${where}`);
        if (name !== null && stateRef(name, toEntry.value.span, where)) to = name;
      }
      const rolesEntry = tm.get('roles');
      if (rolesEntry) rolesToCheck.set(`${entry.key}.${t.key}`, rolesEntry);
      const roles = rolesEntry
        ? reader.names(rolesEntry.value, `the roles of ${where}`).map((r) => r.name)
        : null;

      const fieldNames = Object.keys(entity.fields);
      const require: string[] = [];
      const requireEntry = tm.get('require');
      for (const { name, span } of requireEntry
        ? reader.names(requireEntry.value, `\`require\` of ${where}`)
        : []) {
        if (own(entity.fields, name) === undefined) {
          bag.report(
            'NF302',
            span,
            `\`${entry.key}\` has no field \`${name}\` for ${where} to require.`,
            suggestion(name, fieldNames, 'field'),
          );
        } else require.push(name);
      }
      const errorEntry = tm.get('error');
      const error = errorEntry ? reader.string(errorEntry.value, `the error of ${where}`) : null;
      // the catalogue is read after the machines: the code is checked then (checkTransitionErrors)
      if (errorEntry && error !== null) ctx.spans.set(errorSpanKey(entry.key, t.key), errorEntry.value.span);
      const set: Record<string, Expr> = {};
      const setEntry = tm.get('set');
      const label = tm.get('label');
      const confirm = tm.get('confirm');
      const transition: Transition = {
        name: t.key,
        label: label
          ? (reader.string(label.value, `the label of ${where}`) ?? humanize(t.key))
          : humanize(t.key),
        from: [...new Set(from)],
        to,
        roles,
        when: null,
        error: error === null ? null : specErrorCode(error),
        require,
        set,
        confirm: confirm
          ? readConfirm(
              ctx,
              confirm,
              where,
              label ? (reader.scalar(label.value)?.value?.toString() ?? humanize(t.key)) : humanize(t.key),
            )
          : null,
        timer: readTimer(ctx, entity, where, { after: tm.get('after'), at: tm.get('at'), roles: rolesEntry }),
      };
      transitions[t.key] = transition;
      // expressions are checked once the machine's `state` field exists in scope
      pendingExprs.push(() => {
        const scope = { entity, old: false };
        const whenEntry = tm.get('when');
        if (whenEntry) {
          const source = reader.string(whenEntry.value, `the guard of ${where}`);
          const expr =
            source === null
              ? null
              : checkExpression(ctx, ctx.envs, {
                  source,
                  span: whenEntry.value.span,
                  raw: whenEntry.value.raw,
                  scope,
                  expect: 'bool',
                  sql: false,
                  what: `the guard of ${where}`,
                });
          transitions[t.key] = { ...transitions[t.key]!, when: expr };
        }
        for (const s of setEntry ? reader.dict(setEntry.value, `\`set\` of ${where}`) : []) {
          const field = own(entity.fields, s.key);
          if (field === undefined) {
            bag.report(
              'NF302',
              s.keySpan,
              `\`${entry.key}\` has no field \`${s.key}\` for ${where} to set.`,
              suggestion(s.key, fieldNames, 'field'),
            );
            continue;
          }
          if (isFileField(field)) {
            bag.report(
              'NF313',
              s.keySpan,
              `\`${entry.key}.${s.key}\` holds files, so ${where} cannot set it.`,
              'a file is attached or removed by a change of the record; a transition may `require` it',
            );
            continue;
          }
          const v = s.value;
          const source =
            v.kind === 'scalar' && v.value !== null
              ? typeof v.value === 'string'
                ? v.value
                : String(v.value)
              : v.kind === 'scalar'
                ? 'null'
                : null;
          if (source === null) {
            reader.wrongType(v, `the value set to \`${s.key}\` must be an expression`);
            continue;
          }
          const expr = checkExpression(ctx, ctx.envs, {
            source,
            span: v.span,
            raw: v.raw,
            scope,
            expect: celTypeOf(field),
            sql: false,
            what: `the value ${where} sets to \`${s.key}\``,
          });
          if (expr !== null) set[s.key] = expr;
        }
      });
    }

    // `from: '*'` means every state that may be left, known only once all transitions are read
    for (const name of wildcards) {
      const t = transitions[name]!;
      const all = Object.values(states)
        .filter((s) => !s.terminal && s.name !== t.to)
        .map((s) => s.name);
      transitions[name] = { ...t, from: [...new Set([...t.from, ...all])] };
    }
    const machine: StateMachine = { entity: entry.key, initial, states, transitions };
    ctx.states[entry.key] = machine;
    for (const check of pendingExprs) check();
    checkReachability(ctx, machine, stateSpans);
    ctx.spans.set(`states:${entry.key}`, entry.keySpan);
  }
  return rolesToCheck;
}

const errorSpanKey = (entity: string, transition: string) => `transition-error:${entity}.${transition}`;

/**
 * A transition's `error` names a code of the catalogue (NF305), which is known only once `errors:`
 * is read, after the machines.
 */
export function checkTransitionErrors(ctx: CompileContext): void {
  for (const machine of Object.values(ctx.states)) {
    for (const t of Object.values(machine.transitions)) {
      if (t.error === null || own(ctx.errors, t.error) !== undefined) continue;
      const span = ctx.spans.get(errorSpanKey(machine.entity, t.name));
      if (span === undefined) continue;
      const near = suggestion(t.error, Object.keys(ctx.errors), 'error code');
      ctx.bag.report(
        'NF305',
        span,
        `\`${t.error}\` is not in the error catalogue.`,
        `${near.endsWith('?') ? `${near} Or` : `${near}; or`} declare it under \`errors:\` in section 8`,
      );
    }
  }
}

function readConfirm(ctx: CompileContext, entry: YEntry, where: string, label: string): string | null {
  const v = entry.value;
  if (v.kind === 'scalar' && typeof v.value === 'boolean') return v.value ? `${label}?` : null;
  return ctx.reader.string(v, `\`confirm\` of ${where}`);
}

function checkReachability(
  ctx: CompileContext,
  machine: StateMachine,
  spans: Map<string, YEntry['keySpan']>,
) {
  if (machine.initial === '') return;
  const reached = new Set([machine.initial]);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of Object.values(machine.transitions)) {
      if (t.to !== '' && !reached.has(t.to) && t.from.some((f) => reached.has(f))) {
        reached.add(t.to);
        grew = true;
      }
    }
  }
  for (const state of Object.keys(machine.states)) {
    const span = spans.get(state);
    if (!reached.has(state) && span !== undefined) {
      ctx.bag.report(
        'NF312',
        span,
        `No sequence of transitions reaches \`${state}\` from \`${machine.initial}\`.`,
        `add a transition \`to: ${state}\`, or remove the state`,
      );
    }
  }
  // a state no transition leaves is terminal, whether or not the spec says so
  for (const [name, state] of Object.entries(machine.states)) {
    const leaves = Object.values(machine.transitions).some((t) => t.from.includes(name));
    if (!leaves && !state.terminal)
      (machine.states as Record<string, State>)[name] = { ...state, terminal: true };
  }
}
