import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

describe('onDelete (decision 0043)', () => {
  it('reads restrict by default and each value a ref may take', () => {
    const result = compile(
      spec`
        entities:
          Category: { fields: { name: string } }
          Product:
            fields:
              name: string
              category: { type: ref, to: Category }
              shelf: { type: ref, to: Category, onDelete: setNull }
              kit: { type: ref, to: Category, required: true, onDelete: cascade }
              tags: { type: ref, to: Category, many: true, onDelete: setNull }
      `,
      { file: 'spec.yaml' },
    );
    expect(result.diagnostics).toEqual([]);
    if (!result.ok) throw new Error('does not compile');
    const fields = result.model.entities['Product']!.fields;
    expect(fields['category']!.onDelete).toBe('restrict');
    expect(fields['shelf']!.onDelete).toBe('setNull');
    expect(fields['kit']!.onDelete).toBe('cascade');
    expect(fields['tags']!.onDelete).toBe('setNull');
    expect(fields['name']!.onDelete).toBeNull();
  });

  it('NF207: an unknown value, with the nearest one', () => {
    expectDiagnostic(
      spec`
        entities:
          Category: { fields: { name: string } }
          Product:
            fields:
              category: { type: ref, to: Category, onDelete: cascde }
      `,
      {
        code: 'NF207',
        line: 5,
        column: 54,
        message: /`cascde` is not what deleting a referenced record can do to field `Product.category`/,
        hint: /did you mean `cascade`\?/,
      },
    );
  });

  it('NF206: onDelete on a field that is not a ref', () => {
    expectDiagnostic(
      spec`
        entities:
          Product:
            fields:
              name: { type: string, onDelete: cascade }
      `,
      { code: 'NF206', line: 4, column: 29, hint: /only ref fields/ },
    );
  });

  it('NF222: setNull on a required ref', () => {
    expectDiagnostic(
      spec`
        entities:
          Category: { fields: { name: string } }
          Product:
            fields:
              category: { type: ref, to: Category, required: true, onDelete: setNull }
      `,
      {
        code: 'NF222',
        line: 5,
        column: 70,
        message:
          /Field `Product.category` is required, so `onDelete: setNull` would leave it without a value/,
        hint: /onDelete: cascade/,
      },
    );
  });

  it('NF223 (a warning): cascade on a list of refs', () => {
    const { result } = expectDiagnostic(
      spec`
        entities:
          Tag: { fields: { name: string } }
          Post:
            fields:
              tags: { type: ref, to: Tag, many: true, onDelete: cascade }
      `,
      { code: 'NF223', line: 5, column: 57, hint: /onDelete: setNull/ },
    );
    if (!result.ok) throw new Error('a warning does not fail the compile');
    expect(result.model.entities['Post']!.fields['tags']!.onDelete).toBe('cascade');
  });
});
