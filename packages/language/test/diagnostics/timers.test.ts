import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { parseDuration } from '../../src/facets/timers.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

/** A loan whose machine has the given transitions (one YAML line each, indented under `transitions:`). */
function loans(...transitions: string[]): string {
  return [
    'entities:',
    '  Loan: { fields: { title: string, dueAt: datetime, dueOn: date, copies: integer } }',
    'states:',
    '  Loan:',
    '    initial: borrowed',
    '    transitions:',
    ...transitions.map((t) => `      ${t}`),
    '',
  ].join('\n');
}

describe('timed transitions', () => {
  it('compiles `after` to milliseconds and `at` to the field, and a transition without them to no timer', () => {
    const result = compile(
      loans(
        'markOverdue: { from: borrowed, to: overdue, at: dueAt }',
        'remind: { from: overdue, to: reminded, after: 2w }',
        'giveBack: { from: [borrowed, overdue, reminded], to: returned }',
      ),
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    const transitions = result.model.states['Loan']!.transitions;
    expect(transitions['markOverdue']!.timer).toEqual({ at: 'dueAt' });
    expect(transitions['remind']!.timer).toEqual({ after: 14 * 86_400_000 });
    expect(transitions['giveBack']!.timer).toBeNull();
  });

  it('reads every unit of a duration and refuses anything else', () => {
    expect(parseDuration('3s')).toBe(3000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('1w')).toBe(604_800_000);
    for (const bad of ['0d', '-1d', '1.5h', '7', 'd', '7 d', '7D', '07d', '7dd', '', '99999999999w'])
      expect(parseDuration(bad), bad).toBeNull();
  });

  it('NF212: a duration that is not a whole number and a unit', () => {
    expectDiagnostic(loans('close: { from: borrowed, to: closed, after: 7days }'), {
      code: 'NF212',
      line: 7,
      column: 51,
      message: /`after` of transition `Loan.close` must be a duration like `7d`, found `7days`/,
      hint: /s, m, h, d or w/,
    });
  });

  it('NF212: a duration of zero', () => {
    expectDiagnostic(loans('close: { from: borrowed, to: closed, after: 0s }'), {
      code: 'NF212',
      line: 7,
      column: 51,
      message: /found `0s`/,
    });
  });

  it('NF213: both `after` and `at`', () => {
    expectDiagnostic(loans('close: { from: borrowed, to: closed, after: 7d, at: dueAt }'), {
      code: 'NF213',
      line: 7,
      column: 55,
      message: /has both `after` and `at`/,
      hint: /not both/,
    });
  });

  it('NF316: a timed transition that names roles', () => {
    expectDiagnostic(
      spec`
        entities:
          Loan: { fields: { title: string } }
        roles:
          librarian: { Loan: { read: true, create: true, update: true } }
        states:
          Loan:
            initial: borrowed
            transitions:
              close: { from: borrowed, to: closed, after: 7d, roles: [librarian] }
      `,
      {
        code: 'NF316',
        line: 9,
        column: 55,
        message: /Transition `Loan.close` is fired by the clock, so no role fires it/,
        hint: /declare a separate transition with the roles/,
      },
    );
  });

  it('NF302: `at` naming no field of the entity', () => {
    expectDiagnostic(loans('markOverdue: { from: borrowed, to: overdue, at: dueAtt }'), {
      code: 'NF302',
      line: 7,
      column: 55,
      message: /`Loan` has no field `dueAtt` for transition `Loan.markOverdue` to fire at/,
      hint: /did you mean `dueAt`\?/,
    });
  });

  it('NF313: `at` naming a field that is not a date or datetime', () => {
    expectDiagnostic(loans('markOverdue: { from: borrowed, to: overdue, at: copies }'), {
      code: 'NF313',
      line: 7,
      column: 55,
      message:
        /`Loan.copies` is an integer field; transition `Loan.markOverdue` can fire only at a date or datetime/,
      hint: /date or datetime/,
    });
  });
});
