/**
 * Durations, dates and fields named like expression names, as the compiler reads them
 * (decision 0064): NF332, NF333 and NF334, and what compiles.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

const loan = spec`
  entities:
    Loan:
      fields:
        title: string
        borrowedOn: date
        dueOn: date
        dueAt: datetime
        user: { type: ref, to: User }
        status: { type: enum, values: [out, back] }
        now: datetime
`;

const rule = (assert: string) => loan + `rules:\n  - id: check\n    entity: Loan\n    assert: "${assert}"\n`;

describe('durations and dates in expressions', () => {
  it('compile in rules and in SQL filters, `d` read as days of 24 hours', () => {
    const r = compile(
      loan +
        spec`
          rules:
            - { id: term, entity: Loan, assert: "dueOn - borrowedOn <= duration('28d')" }
            - { id: soon, entity: Loan, assert: "dueAt - now < duration('1h30m') || dueOn + duration('2d') > today" }
          screens:
            overdue: { kind: list, entity: Loan, where: "dueAt < now + duration('28d') && dueAt - now > duration('-24h')" }
        `,
      { file: 'spec.yaml' },
    );
    expect(
      r.diagnostics.filter((d) => d.severity === 'error'),
      listed(r.diagnostics),
    ).toEqual([]);
    if (!r.ok) throw new Error(listed(r.diagnostics));
    const rules = r.model.rules;
    expect(rules.find((x) => x.id === 'term')?.assert.source).toBe(
      "dueOn - borrowedOn <= duration('2419200s')",
    );
    expect(rules.find((x) => x.id === 'soon')?.assert.source).toContain("duration('1h30m')");
  });

  it('NF332: a duration that is not one, at the literal', () => {
    expectDiagnostic(rule("dueAt - now < duration('24x')"), {
      code: 'NF332',
      line: 14,
      column: 37,
      message: /`24x` is not a duration: it is not a number with a unit/,
      hint: /`d` \(days of 24 hours\), `h`, `m`, `s` or `ms`/,
    });
  });

  it('NF332: a duration finer than a millisecond', () => {
    expectDiagnostic(rule("dueAt - now < duration('5us')"), {
      code: 'NF332',
      line: 14,
      column: 37,
      message: /finer than an instant is kept/,
    });
  });

  it('NF332: an instant without a zone', () => {
    expectDiagnostic(rule("dueAt > timestamp('2026-01-31 09:30')"), {
      code: 'NF332',
      line: 14,
      column: 32,
      message: /`2026-01-31 09:30` is not an instant/,
      hint: /timestamp\('2026-01-31T09:30:00Z'\)/,
    });
  });

  it('NF333: text that is not a date moved by a duration', () => {
    expectDiagnostic(rule("title + duration('24h') > today"), {
      code: 'NF333',
      line: 14,
      column: 14,
      message: /`title` is text that may not be a date/,
      hint: /`date` fields, `today` and dates written out/,
    });
  });

  it('NF333: a date minus text that is not a date', () => {
    expectDiagnostic(rule("today - title > duration('1h')"), {
      code: 'NF333',
      line: 14,
      column: 22,
      message: /`title` is text that may not be a date/,
    });
  });

  it('NF403: an instant moved by a date’s whole days is still an instant, not a date', () => {
    expectDiagnostic(rule("dueOn + duration('1d') == dueAt"), { code: 'NF403', line: 14, column: 14 });
  });
});

describe('fields named like expression names', () => {
  it('compile, and `self.user` reaches the field without a warning', () => {
    const r = compile(rule("self.user == user.id || has(self.now) || self.status == 'out'"), {
      file: 'spec.yaml',
    });
    expect(r.ok, listed(r.diagnostics)).toBe(true);
    expect(r.diagnostics.filter((d) => d.code === 'NF334')).toEqual([]);
  });

  it('NF334: a bare `user` is the signed-in user, and check says where the field is', () => {
    const { result } = expectDiagnostic(rule("user.id != ''"), {
      code: 'NF334',
      line: 14,
      column: 14,
      message: /the field `user` is reached as `self.user` here/,
      hint: /write `self.user` for the record's field, and `user.id` for the signed-in user/,
    });
    expect(result.ok).toBe(true);
  });

  it('NF334: a bare `now` is the current instant', () => {
    expectDiagnostic(rule('dueAt < now'), {
      code: 'NF334',
      line: 14,
      column: 22,
      message: /the field `now` is reached as `self.now` here/,
    });
  });

  it('is not said where the expression writes `self.now` as well', () => {
    const r = compile(rule('self.now < now'), { file: 'spec.yaml' });
    expect(r.diagnostics, listed(r.diagnostics)).toEqual([]);
  });

  it('a field named `status`, no expression name, is its bare name', () => {
    const r = compile(rule("status == 'out' && self.status != 'back'"), { file: 'spec.yaml' });
    expect(r.diagnostics, listed(r.diagnostics)).toEqual([]);
  });
});

describe('durations made of constants', () => {
  const withConstants = (assert: string, constants: string) => rule(assert) + `constants: { ${constants} }\n`;

  it('are read when the spec compiles, days and all', () => {
    const r = compile(withConstants("dueAt < now + duration(string(LOAN_DAYS) + 'd')", 'LOAN_DAYS: 14'), {
      file: 'spec.yaml',
    });
    expect(r.ok, listed(r.diagnostics)).toBe(true);
    if (!r.ok) throw new Error(listed(r.diagnostics));
    expect(r.model.rules[0]!.assert.source).toBe("dueAt < now + duration('1209600s')");
  });

  it('NF332: a constant that is not a duration, at its use', () => {
    expectDiagnostic(withConstants('dueAt < now + duration(SLA)', 'SLA: 4 hours'), {
      code: 'NF332',
      line: 14,
      column: 37,
      message: /`4 hours` \(the value of `SLA`\) is not a duration/,
    });
  });
});
