import { describe, it } from 'vitest';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

describe('notation', () => {
  it('NF201: a misspelt constraint', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              title: { type: string, maxLenght: 120 }
      `,
      {
        code: 'NF201',
        line: 4,
        column: 30,
        message: /`maxLenght` is not a key of field `Claim.title`/,
        hint: /did you mean `maxLength`\?/,
      },
    );
  });

  it('NF201: an unknown key of an entity lists the valid ones', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields: { title: string }
            colour: blue
      `,
      { code: 'NF201', line: 4, column: 5, hint: /expected one of `label`, `plural`.*`fields`/ },
    );
  });

  it('NF202: a value of the wrong type', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              title: { type: string, required: maybe }
      `,
      {
        code: 'NF202',
        line: 4,
        column: 40,
        message: /`required` of field `Claim.title` must be true or false, found the text "maybe"/,
      },
    );
  });

  it('NF202: a facet that is not a mapping', () => {
    expectDiagnostic('entities: [Claim]\n', {
      code: 'NF202',
      line: 1,
      column: 11,
      message: /`entities` must be a mapping/,
    });
  });

  it('NF202: a YAML spec that is a list', () => {
    expectDiagnostic('- entities\n- rules\n', {
      code: 'NF202',
      line: 1,
      column: 1,
      message: /must be a mapping of top-level keys/,
      hint: /entities/,
    });
  });

  it('NF203: a field without a type', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              title: { required: true }
      `,
      {
        code: 'NF203',
        line: 4,
        column: 7,
        message: /Field `Claim.title` needs `type`/,
        hint: /type: string/,
      },
    );
  });

  it('NF203: money without a currency', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              amount: { type: money }
      `,
      { code: 'NF203', line: 4, column: 7, message: /needs `currency`/, hint: /currency: EUR/ },
    );
  });

  it('NF204: an entity name that is not PascalCase', () => {
    expectDiagnostic(
      spec`
        entities:
          claim: { fields: { title: string } }
      `,
      { code: 'NF204', line: 2, column: 3, message: /entity name `claim`/, hint: /PascalCase/ },
    );
  });

  it('NF204: a rule id that is not kebab-case', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { amount: integer } }
        rules:
          - { id: Positive_Amount, entity: Claim, assert: "amount > 0" }
      `,
      { code: 'NF204', line: 4, column: 11, message: /rule id `Positive_Amount`/, hint: /kebab-case/ },
    );
  });

  it('NF205: a misspelt field type', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              title: { type: strng }
      `,
      {
        code: 'NF205',
        line: 4,
        column: 22,
        message: /`strng` is not a field type/,
        hint: /did you mean `string`\?/,
      },
    );
  });

  it('NF205: a type from another language suggests ours', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              count: { type: int }
      `,
      { code: 'NF205', line: 4, column: 22, hint: /did you mean `integer`\?/ },
    );
  });

  it('NF206: a constraint that does not apply to the type', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              count: { type: integer, maxLength: 3 }
      `,
      {
        code: 'NF206',
        line: 4,
        column: 31,
        message: /`maxLength` does not apply to an integer field/,
        hint: /`min`\/`max` on numbers/,
      },
    );
  });

  it('NF207: bounds the wrong way round', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              amount: { type: integer, min: 10, max: 1 }
      `,
      { code: 'NF207', line: 4, column: 37, message: /lower bound 10 above its upper bound 1/, hint: /swap/ },
    );
  });

  it('NF207: a pattern that is not a regular expression', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              code: { type: string, pattern: "[A-Z" }
      `,
      { code: 'NF207', line: 4, column: 38, message: /not a valid regular expression/ },
    );
  });

  it('NF207: an unknown currency', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              amount: { type: money, currency: EURO }
      `,
      { code: 'NF207', line: 4, column: 40, message: /`EURO` is not an ISO 4217 currency code/, hint: /EUR/ },
    );
  });

  it('NF208: a default that does not fit its field', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              category: { type: enum, values: [travel, meals], default: hotel }
      `,
      {
        code: 'NF208',
        line: 4,
        column: 65,
        message: /default of field `Claim.category` must be one of `travel`, `meals`, found the text "hotel"/,
      },
    );
  });

  it('NF206: a colour takes no bounds', () => {
    expectDiagnostic(
      spec`
        entities:
          Label:
            fields:
              color: { type: color, min: 1 }
      `,
      {
        code: 'NF206',
        line: 4,
        column: 29,
        message: /`min` does not apply to a color field/,
        hint: /`min`\/`max` on integer, decimal, money, date, datetime or time fields/,
      },
    );
  });

  it('NF208: a colour default that is not #rrggbb', () => {
    expectDiagnostic(
      spec`
        entities:
          Label:
            fields:
              color: { type: color, default: 'blue' }
      `,
      {
        code: 'NF208',
        line: 4,
        column: 38,
        message: /default of field `Label.color` must be a color value, found the text "blue"/,
      },
    );
  });

  it('NF209: a field named like a system field', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              createdAt: datetime
      `,
      {
        code: 'NF209',
        line: 4,
        column: 7,
        message: /`createdAt` is a system field/,
        hint: /choose another name/,
      },
    );
  });

  it('NF209: a field named like a name every expression has', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              self: boolean
      `,
      { code: 'NF209', line: 4, column: 7, message: /`self` is a name that expressions already use/ },
    );
  });

  it('NF209: a transition named like a record operation', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        states:
          Claim:
            initial: draft
            transitions:
              delete: { from: draft, to: gone }
      `,
      { code: 'NF209', line: 7, column: 7, message: /names a record operation/, hint: /deleteRequest/ },
    );
  });

  it('NF209: a screen on a path the runtime serves', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          apiClaims: { entity: Claim, path: /api/claims }
      `,
      { code: 'NF209', line: 4, column: 37, message: /reserved by the runtime \(`\/api`\)/ },
    );
  });

  it('NF209: a screen on a page the app serves itself', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          about: { entity: Claim, path: /about }
      `,
      { code: 'NF209', line: 4, column: 33, message: /reserved by the runtime \(`\/about`\)/ },
    );
  });

  it('NF209: a screen under the admin area or the account pages the app serves itself', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          jobs: { entity: Claim, path: /admin/jobs }
      `,
      { code: 'NF209', line: 4, column: 32, message: /reserved by the runtime \(`\/admin`\)/ },
    );
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          me: { entity: Claim, path: /account }
      `,
      { code: 'NF209', line: 4, column: 30, message: /reserved by the runtime \(`\/account`\)/ },
    );
  });

  it('NF210: an enum value listed twice', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim:
            fields:
              category: { type: enum, values: [travel, meals, travel] }
      `,
      { code: 'NF210', line: 4, column: 55, message: /`travel` is listed twice/, hint: /remove one/ },
    );
  });

  it('NF211: a screen kind that does not exist', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        screens:
          claims: { entity: Claim, kind: lists }
      `,
      {
        code: 'NF211',
        line: 4,
        column: 34,
        message: /`lists` is not a kind of screen/,
        hint: /did you mean `list`\?/,
      },
    );
  });

  it('NF211: a colour scheme that does not exist', () => {
    expectDiagnostic(
      spec`
        product:
          theme: { colorScheme: darkest }
      `,
      {
        code: 'NF211',
        line: 2,
        column: 25,
        message: /not a colour scheme/,
        hint: /`auto`, `light` or `dark`/,
      },
    );
  });
});
