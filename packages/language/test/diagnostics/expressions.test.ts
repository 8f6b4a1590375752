import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

const claim = spec`
  entities:
    Claim:
      owner: submittedBy
      fields:
        amount: { type: money, currency: EUR }
        title: string
        submittedBy: { type: ref, to: User }
        tags: { type: enum, values: [a, b], many: true }
`;

describe('expressions', () => {
  it('NF401: an expression that does not parse', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - id: positive
              entity: Claim
              assert: "amount >"
        `,
      {
        code: 'NF401',
        line: 12,
        column: 22,
        message: /assertion of rule `positive` does not parse: unexpected token: the end of the expression/,
        hint: /CEL reads like/,
      },
    );
  });

  it('NF401: an empty expression', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - { id: positive, entity: Claim, assert: "  " }
        `,
      { code: 'NF401', line: 10, column: 45, message: /is empty/, hint: /amount > 0/ },
    );
  });

  it('NF402: an unknown name', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - id: positive
              entity: Claim
              assert: "amout > 3"
        `,
      {
        code: 'NF402',
        line: 12,
        column: 14,
        message: /uses `amout`, which is not defined here/,
        hint: /did you mean `amount`\?/,
      },
    );
  });

  it('NF402: a field selected on the record that does not exist', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - id: positive
              entity: Claim
              assert: "self.amont > 3"
        `,
      { code: 'NF402', line: 12, column: 19, message: /selects `amont`/, hint: /did you mean `amount`\?/ },
    );
  });

  it('NF402: `old` outside an update', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - { id: grows, entity: Claim, assert: "amount >= old.amount" }
        `,
      {
        code: 'NF402',
        line: 10,
        column: 52,
        message: /uses `old`/,
        hint: /only in rules that run on a change to an existing record/,
      },
    );
  });

  it('NF403: an expression that does not type-check', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - { id: positive, entity: Claim, assert: "amount > 'ten'" }
        `,
      {
        code: 'NF403',
        line: 10,
        column: 45,
        message: /does not type-check: no such overload: double > string/,
        hint: /numbers and text cannot be compared/,
      },
    );
  });

  it('NF403: a transition setting a value of the wrong type', () => {
    expectDiagnostic(
      claim +
        spec`
          states:
            Claim:
              initial: draft
              transitions:
                submit: { from: draft, to: submitted, set: { title: "1 + 2" } }
        `,
      { code: 'NF403', line: 13, column: 60, message: /must be text, but it is a whole number/ },
    );
  });

  it('NF404: a condition that is not a boolean', () => {
    expectDiagnostic(
      claim +
        spec`
          rules:
            - { id: positive, entity: Claim, assert: "amount + 1.0" }
        `,
      {
        code: 'NF404',
        line: 10,
        column: 45,
        message: /must be a boolean \(true or false\), but it is a number/,
        hint: /compare it/,
      },
    );
  });

  it('NF405: a read permission that cannot become SQL', () => {
    expectDiagnostic(
      claim +
        spec`
          roles:
            employee:
              Claim: { read: "title.matches('^A')" }
        `,
      {
        code: 'NF405',
        line: 11,
        column: 21,
        message:
          /read permission of role `employee` on `Claim` runs as SQL, but the method `matches` has no SQL translation/,
        hint: /comparisons of fields with values/,
      },
    );
  });

  it('NF405: a list filter over a list field', () => {
    expectDiagnostic(
      claim +
        spec`
          screens:
            tagged: { entity: Claim, where: "'a' in tags" }
        `,
      { code: 'NF405', line: 10, column: 36, message: /runs as SQL, but `in` needs a list written out/ },
    );
  });

  it('a list of refs runs as SQL in `in`, `size()` and `has()` (decision 0044), and not otherwise', () => {
    const projects = spec`
      entities:
        Project:
          fields:
            title: string
            members: { type: ref, to: User, many: true }
      roles:
        member:
          Project: { read: "user.id in members || (size(members) > 3 && has(self.members))" }
      screens:
        mine: { entity: Project, where: "!(user.id in self.members)" }
    `;
    const result = compile(projects, { file: 'spec.yaml' });
    expect(result.diagnostics.filter((d) => d.code === 'NF405')).toEqual([]);
    expect(result.ok).toBe(true);
    expectDiagnostic(projects.replace('user.id in members ||', 'members == [] ||'), {
      code: 'NF405',
      line: 8,
      column: 23,
      message: /`members` is a list, and lists are not compared inside SQL queries/,
    });
  });

  it('NF406: an expression longer than allowed (1 MB)', () => {
    const long = `${'amount + '.repeat(120_000)}1.0 > 0`;
    expectDiagnostic(claim + `rules:\n  - { id: long, entity: Claim, assert: "${long}" }\n`, {
      code: 'NF406',
      line: 10,
      column: 41,
      message: /1080007 characters long; at most 4096/,
      hint: /split it/,
    });
  });

  it('NF406: an expression nested deeper than allowed', () => {
    const deep = `${'['.repeat(60)}1${']'.repeat(60)} == []`;
    expectDiagnostic(claim + `rules:\n  - { id: deep, entity: Claim, assert: "${deep}" }\n`, {
      code: 'NF406',
      line: 10,
      column: 89,
      message: /too large: exceeded maxdepth \(48\)/,
    });
  });
});
