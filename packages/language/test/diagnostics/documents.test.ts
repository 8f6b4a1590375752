import { describe, it } from 'vitest';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

describe('documents', () => {
  it('NF001: a file with NUL bytes is binary, not a spec', () => {
    expectDiagnostic('# Claims\0\n', { code: 'NF001', line: 1, column: 1, message: /NUL bytes/ }, 'spec.md');
  });

  it('NF001: bytes that are not UTF-8', () => {
    const bytes = new Uint8Array([0x23, 0x20, 0xc3, 0x28, 0x0a]);
    expectDiagnostic(bytes, { code: 'NF001', line: 1, column: 1, message: /not valid UTF-8/, hint: /UTF-8/ });
  });

  it('NF002: a file larger than the compiler accepts', () => {
    expectDiagnostic(
      `# Claims\n${'x'.repeat(4000)}`,
      { code: 'NF002', line: 1, column: 1, message: /larger than 2 KiB/, hint: /split the spec/ },
      'spec.md',
      { maxBytes: 2048 },
    );
  });

  it('NF002: counts UTF-8 bytes, not characters', () => {
    // 1,000 characters of three bytes each: 3,000 bytes in the file
    expectDiagnostic(`# ${'€'.repeat(1000)}`, { code: 'NF002', line: 1, column: 1 }, 'spec.md', {
      maxBytes: 2048,
    });
  });

  it('NF003: an empty document', () => {
    expectDiagnostic('', {
      code: 'NF003',
      line: 1,
      column: 1,
      message: /empty/,
      hint: /start from the seed/,
    });
  });

  it('NF003: whitespace only', () => {
    expectDiagnostic(' \n\t\n  \n', { code: 'NF003', line: 1, column: 1 }, 'spec.md');
  });

  it('NF004: a Markdown spec without numbered sections', () => {
    expectDiagnostic(
      spec`
        # Claims
        Employees ask to be reimbursed.
      `,
      { code: 'NF004', line: 1, column: 1, message: /no numbered sections/, hint: /## N\. Title/ },
    );
  });

  it('NF005: a section number outside 1–9', () => {
    expectDiagnostic(
      spec`
        # Claims
        ## 1. What it does
        not shown.
        ## 10. Appendix
      `,
      { code: 'NF005', line: 4, column: 1, message: /Section number 10/, hint: /1 to 9/ },
    );
  });

  it('NF006: a section twice', () => {
    expectDiagnostic(
      spec`
        # Claims
        ## 3. Entities
        not shown.
        ## 3. More entities
      `,
      { code: 'NF006', line: 4, column: 1, message: /Section 3 appears a second time/, hint: /merge/ },
    );
  });

  it('NF007: sections out of order', () => {
    expectDiagnostic(
      spec`
        # Claims
        ## 5. Rules
        not shown.
        ## 2. Screens
      `,
      { code: 'NF007', line: 4, column: 1, message: /Section 2 comes after section 5/, hint: /order/ },
    );
  });

  it('NF008: a fence never closed', () => {
    expectDiagnostic(
      spec`
        # Claims
        ## 3. Entities
        \`\`\`yaml
        entities:
          Claim: { fields: { title: string } }
      `,
      { code: 'NF008', line: 3, column: 1, message: /never closed/, hint: /end it with a line of ```/ },
    );
  });

  it('NF009: a yaml block before the first section', () => {
    expectDiagnostic(
      spec`
        # Claims
        \`\`\`yaml
        entities: {}
        \`\`\`
        ## 1. What it does
        not shown.
      `,
      { code: 'NF009', line: 2, column: 1, message: /not inside a numbered section/, hint: /## 3\./ },
    );
  });

  it('NF010: a key in a section other than its own (a warning)', () => {
    const { result } = expectDiagnostic(
      spec`
        # Claims
        ## 2. Screens
        \`\`\`yaml
        entities:
          Claim: { fields: { title: string } }
        \`\`\`
      `,
      {
        code: 'NF010',
        line: 4,
        column: 1,
        message: /`entities` belongs in section 3, but is written in section 2/,
        hint: /## 3\. Entities and their fields/,
      },
    );
    if (!result.ok) throw new Error('a misplaced key is only a warning');
  });

  it('NF011: an unknown top-level key', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { title: string } }
        entites: {}
      `,
      {
        code: 'NF011',
        line: 3,
        column: 1,
        message: /`entites` is not a top-level key/,
        hint: /did you mean `entities`\?/,
      },
    );
  });

  it('NF012: the same entity declared in two blocks', () => {
    expectDiagnostic(
      spec`
        # Claims
        ## 3. Entities
        \`\`\`yaml
        entities:
          Claim: { fields: { title: string } }
        \`\`\`
        \`\`\`yaml
        entities:
          Claim: { fields: { amount: integer } }
        \`\`\`
      `,
      { code: 'NF012', line: 9, column: 3, message: /`Claim` is declared a second time/, hint: /merge/ },
    );
  });

  it('NF012: the same rule id twice', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { amount: integer } }
        rules:
          - { id: positive, entity: Claim, assert: "amount > 0" }
          - { id: positive, entity: Claim, assert: "amount < 10" }
      `,
      { code: 'NF012', line: 5, column: 11, message: /rule id `positive` is used twice/ },
    );
  });
});
