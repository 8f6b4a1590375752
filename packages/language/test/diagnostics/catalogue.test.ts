import { describe, it } from 'vitest';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

describe('the error catalogue', () => {
  it('NF501: a message that is not ICU MessageFormat', () => {
    expectDiagnostic(
      spec`
        errors:
          E_TOO_HIGH: { message: "At most {MAX" }
      `,
      {
        code: 'NF501',
        line: 2,
        column: 35,
        message: /not valid ICU MessageFormat: expect argument closing brace/,
        hint: /quote a literal brace/,
      },
    );
  });

  it('NF502: a message argument that nothing supplies', () => {
    expectDiagnostic(
      spec`
        constants: { MAX_CLAIM: 5000 }
        errors:
          E_TOO_HIGH: { message: "At most {MAX_CLAM, number}." }
      `,
      {
        code: 'NF502',
        line: 3,
        column: 36,
        message: /uses `\{MAX_CLAM\}`, which no error supplies/,
        hint: /did you mean `MAX_CLAIM`\?/,
      },
    );
  });

  it('NF503: a status that is not an HTTP error', () => {
    expectDiagnostic(
      spec`
        errors:
          E_TOO_HIGH: { status: 200, message: "Too high." }
      `,
      { code: 'NF503', line: 2, column: 25, message: /from 400 to 599, found 200/, hint: /422/ },
    );
  });

  it('NF504: an error code not in E_UPPER_SNAKE', () => {
    expectDiagnostic(
      spec`
        errors:
          TooHigh: { message: "Too high." }
      `,
      { code: 'NF504', line: 2, column: 3, message: /error name `TooHigh`/, hint: /E_UPPER_SNAKE/ },
    );
  });
});

describe('constants and limits', () => {
  it('NF601: a limit outside its range', () => {
    expectDiagnostic(
      spec`
        limits:
          pageSize: 0
      `,
      {
        code: 'NF601',
        line: 2,
        column: 13,
        message: /`limits.pageSize` must be between 1 and 1000, found 0/,
      },
    );
  });

  it('NF601: a page size above the largest page', () => {
    expectDiagnostic(
      spec`
        limits: { pageSize: 500, maxPageSize: 100 }
      `,
      {
        code: 'NF601',
        line: 1,
        column: 21,
        message: /above `limits.maxPageSize` \(100\)/,
        hint: /raise maxPageSize/,
      },
    );
  });
});
