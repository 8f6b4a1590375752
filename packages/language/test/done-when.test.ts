import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import { listed, spec } from './diagnostics/expect-diagnostic.js';

// The "done when": five different mistakes in one spec, each at its exact line with a hint,
// all in one run.
const claims = spec`
  # Expense claims

  ## 3. Entities and their fields
  \`\`\`yaml
  entities:
    Claim:
      fields:
        title:  { type: strng, required: true }
        amount: { type: money, currency: EUR, required: true }
  \`\`\`

  ## 4. States and transitions
  \`\`\`yaml
  states:
    Claim:
      initial: draft
      states: [draft, submitted, approved]
      transitions:
        submit:  { from: draft, to: submitted }
        approve: { from: submitted, to: aproved }
  \`\`\`

  ## 5. Validation rules
  \`\`\`yaml
  rules:
    - id: big-claims-need-review
      entity: Claim
      assert: "amout > 3"
    - id: receipt-required
      entity: Claim
      assert: "amount < 25"
      error: E_NOPE
  \`\`\`

  ## 6. Roles and permissions
  \`\`\`yaml
  roles:
    employee:
      Claims: { read: own }
  \`\`\`
`;

describe('a spec with five mistakes', () => {
  const result = compile(claims, { file: 'claims.md' });
  const at = (code: string) => result.diagnostics.find((d) => d.code === code);

  it('fails, reporting every mistake in one run', () => {
    expect(result.ok).toBe(false);
    expect(
      result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`),
      listed(result.diagnostics),
    ).toEqual([
      '8:23 NF205',
      '17:32 NF312', // a warning that follows from the typo below: nothing reaches `approved`
      '20:39 NF303',
      '28:14 NF402',
      '32:12 NF305',
      '39:5 NF301',
    ]);
  });

  it('reports each at its exact line with a hint', () => {
    expect(at('NF205')).toMatchObject({
      line: 8,
      message: '`strng` is not a field type.',
      hint: 'did you mean `string`?',
    });
    expect(at('NF303')).toMatchObject({
      line: 20,
      message: expect.stringContaining('`aproved` is not a state of `Claim`'),
      hint: 'did you mean `approved`?',
    });
    expect(at('NF402')).toMatchObject({
      line: 28,
      message: expect.stringContaining('uses `amout`, which is not defined here'),
      hint: 'did you mean `amount`?',
    });
    expect(at('NF305')).toMatchObject({
      line: 32,
      message: '`E_NOPE` is not in the error catalogue.',
      hint: expect.stringContaining('declare it under `errors:` in section 8'),
    });
    expect(at('NF301')).toMatchObject({
      line: 39,
      message: expect.stringContaining('`Claims` is not a declared entity'),
      hint: 'did you mean `Claim`?',
    });
    for (const d of result.diagnostics) expect(d.file).toBe('claims.md');
  });
});
