import { describe, it } from 'vitest';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

describe('references', () => {
  it('NF301: a ref to an entity that is not declared', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              project: { type: ref, to: Projet }
          Project: { fields: { name: string } }
      `,
      {
        code: 'NF301',
        line: 4,
        column: 33,
        message: /`Projet` is not a declared entity, so field `Claim.project` cannot refer to it/,
        hint: /did you mean `Project`\?/,
      },
    );
  });

  it('NF301: a role granted access to an unknown entity', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        roles:
          employee: { Claims: { read: true } }
      `,
      {
        code: 'NF301',
        line: 4,
        column: 15,
        message: /role `employee` cannot be granted access/,
        hint: /did you mean `Claim`\?/,
      },
    );
  });

  it('NF302: a field that the entity does not have', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            display: titel
            fields: { title: string }
      `,
      {
        code: 'NF302',
        line: 3,
        column: 14,
        message: /`Claim` has no field `titel`/,
        hint: /did you mean `title`\?/,
      },
    );
  });

  it('NF302: a transition requiring an unknown field', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { reason: text } }
        states:
          Claim:
            initial: draft
            transitions:
              reject: { from: draft, to: rejected, require: [reasn] }
      `,
      { code: 'NF302', line: 7, column: 54, message: /no field `reasn`/, hint: /did you mean `reason`\?/ },
    );
  });

  it('NF303: a transition to a state that is not declared', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        states:
          Claim:
            initial: draft
            states: [draft, submitted]
            transitions:
              submit: { from: draft, to: submited }
      `,
      {
        code: 'NF303',
        line: 8,
        column: 34,
        message: /`submited` is not a state of `Claim`/,
        hint: /did you mean `submitted`\?/,
      },
    );
  });

  it('NF304: a transition role that is not declared', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        states:
          Claim:
            initial: draft
            transitions:
              approve: { from: draft, to: approved, roles: [manger] }
        roles:
          manager: { Claim: { read: true } }
      `,
      {
        code: 'NF304',
        line: 7,
        column: 53,
        message: /`manger` is not a declared role/,
        hint: /did you mean `manager`\?/,
      },
    );
  });

  it('NF304: inheriting from an undeclared role', () => {
    expectDiagnostic(
      spec`
        roles:
          employee: {}
          manager: { inherits: employe }
      `,
      {
        code: 'NF304',
        line: 3,
        column: 24,
        message: /inherits from `employe`/,
        hint: /did you mean `employee`\?/,
      },
    );
  });

  it('NF305: a rule error that is not in the catalogue', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { amount: integer } }
        rules:
          - id: positive
            entity: Claim
            assert: "amount > 0"
            error: E_NEGATIVE_AMONT
        errors:
          E_NEGATIVE_AMOUNT: { message: "The amount must be positive." }
      `,
      {
        code: 'NF305',
        line: 7,
        column: 12,
        message: /`E_NEGATIVE_AMONT` is not in the error catalogue/,
        hint: /did you mean `E_NEGATIVE_AMOUNT`\? Or declare it under `errors:`/,
      },
    );
  });

  it('NF305: a transition error that is not in the catalogue', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { amount: integer } }
        states:
          Claim:
            initial: draft
            transitions:
              submit: { from: draft, to: submitted, when: "amount > 0", error: E_NO_AMONT }
        errors:
          E_NO_AMOUNT: { message: "Give the amount first." }
      `,
      {
        code: 'NF305',
        line: 7,
        column: 72,
        message: /`E_NO_AMONT` is not in the error catalogue/,
        hint: /did you mean `E_NO_AMOUNT`\? Or declare it under `errors:`/,
      },
    );
  });

  it('NF306: a bound naming an undeclared constant', () => {
    expectDiagnostic(
      spec`
        constants: { MAX_CLAIM: 5000 }
        entities:
          Claim:
            fields:
              amount: { type: integer, max: MAX_CLAIMS }
      `,
      {
        code: 'NF306',
        line: 5,
        column: 37,
        message: /`MAX_CLAIMS` is not a declared constant/,
        hint: /did you mean `MAX_CLAIM`\?/,
      },
    );
  });

  it('NF307: a rule triggered by an unknown transition', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { amount: integer } }
        states:
          Claim:
            initial: draft
            transitions:
              submit: { from: draft, to: submitted }
        rules:
          - { id: positive, entity: Claim, assert: "amount > 0", on: [sbmit] }
      `,
      {
        code: 'NF307',
        line: 9,
        column: 63,
        message: /`sbmit` is neither `create`, `update` nor a transition of `Claim`/,
        hint: /did you mean `submit`\?/,
      },
    );
  });

  it('NF308: roles inheriting in a cycle', () => {
    expectDiagnostic(
      spec`
        roles:
          employee: { inherits: manager }
          manager: { inherits: employee }
      `,
      {
        code: 'NF308',
        line: 3,
        column: 24,
        message: /cycle: `employee` → `manager` → `employee`/,
        hint: /remove one of the `inherits`/,
      },
    );
  });

  it('NF309: an owner field that is not a ref to User', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            owner: title
            fields: { title: string }
      `,
      {
        code: 'NF309',
        line: 3,
        column: 12,
        message: /owner of `Claim` must be a single ref to User; `title` is a string/,
        hint: /type: ref, to: User/,
      },
    );
  });

  it('NF310: navigation to a screen that is not declared', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          myClaims: { entity: Claim, path: /mine }
        nav: [myClaim]
      `,
      {
        code: 'NF310',
        line: 5,
        column: 7,
        message: /`myClaim` is not a declared screen/,
        hint: /did you mean `myClaims`\?/,
      },
    );
  });

  it('NF311: two screens with the same path', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          mine: { entity: Claim, path: /claims/mine }
          ours: { entity: Claim, path: /claims/mine }
      `,
      { code: 'NF311', line: 5, column: 32, message: /has the path `\/claims\/mine`, like screen `mine`/ },
    );
  });

  it('NF312: a state no transition reaches (a warning)', () => {
    const { result } = expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        states:
          Claim:
            initial: draft
            states: [draft, submitted, archived]
            transitions:
              submit: { from: draft, to: submitted }
      `,
      {
        code: 'NF312',
        line: 6,
        column: 32,
        message: /No sequence of transitions reaches `archived` from `draft`/,
        hint: /to: archived/,
      },
    );
    if (!result.ok) throw new Error('an unreachable state is only a warning');
  });

  it('NF313: searching a field that is not text', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            search: [amount]
            fields: { amount: integer }
      `,
      { code: 'NF313', line: 3, column: 14, message: /`Claim.amount` is an integer field; only text fields/ },
    );
  });

  it('NF314: a transition that leaves a terminal state', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        states:
          Claim:
            initial: draft
            states: { draft: {}, paid: { terminal: true } }
            transitions:
              pay: { from: draft, to: paid }
              reopen: { from: paid, to: draft }
      `,
      {
        code: 'NF314',
        line: 9,
        column: 23,
        message: /`paid` is marked terminal/,
        hint: /remove `terminal: true`/,
      },
    );
  });

  it('NF315: two entities served at the same resource path', () => {
    expectDiagnostic(
      spec`
        entities:
          Box: { fields: { label: string } }
          Boxe: { fields: { label: string } }
      `,
      {
        code: 'NF315',
        line: 3,
        column: 3,
        message: /`Boxe` would be served at `\/boxes`, like `Box`/,
        hint: /rename/,
      },
    );
  });

  it('NF313: a detail screen in the navigation', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          claim: { entity: Claim, kind: detail, path: /claim/:id }
        nav: [claim]
      `,
      {
        code: 'NF313',
        line: 5,
        column: 7,
        message: /shows one record/,
        hint: /link a list, create, page or dashboard screen/,
      },
    );
  });
});
