/**
 * Files and images in the notation and in expressions (issue 18, decision 0051): what a compiled
 * file field holds (its maxSize and accept, with their defaults), each diagnostic a file field can
 * draw with its place and hint, and what rules and permissions may read of a file.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { parseSize } from '../../src/facets/field-files.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

/** A claim with a receipt (file) and photos (images); `extra` goes among its fields. */
const claims = (receipt: string, extra = '', tail = '') => spec`
  entities:
    Claim:
      fields:
        title: string
        receipt: { type: file${receipt} }
        photos: { type: image, many: true }
        ${extra}
  ${tail}
`;

function compiled(src: string) {
  const result = compile(src, { file: 'spec.yaml' });
  expect(result.ok, result.ok ? '' : listed(result.diagnostics)).toBe(true);
  if (!result.ok) throw new Error('does not compile');
  return result.model;
}

describe('a file field, compiled', () => {
  it('carries maxSize and accept as written, KB, MB and GB powers of 1024', () => {
    const model = compiled(claims(', accept: [application/pdf, IMAGE/*], maxSize: 1.5GB, required: true'));
    expect(model.entities['Claim']!.fields['receipt']).toMatchObject({
      type: 'file',
      many: false,
      required: true,
      maxSize: 1.5 * 1024 ** 3,
      accept: ['application/pdf', 'image/*'],
    });
  });

  it('takes limits.maxUploadSize as the size of every file that names none, and any type', () => {
    const model = compiled(claims('', '', 'limits: { maxUploadSize: 20MB }'));
    const fields = model.entities['Claim']!.fields;
    expect(model.limits.maxUploadSize).toBe(20 * 1024 * 1024);
    expect(fields['receipt']).toMatchObject({ maxSize: 20 * 1024 * 1024, accept: null });
    expect(fields['photos']).toMatchObject({
      many: true,
      maxSize: 20 * 1024 * 1024,
      accept: ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'],
    });
  });

  it('defaults to 10 MiB without limits, and gives User fields the same', () => {
    const model = compiled(spec`
      entities:
        Claim: { fields: { receipt: { type: file, maxSize: 512KB }, photos: { type: image, many: true } } }
        User: { fields: { avatar: image } }
    `);
    expect(model.entities['Claim']!.fields['receipt']!.maxSize).toBe(512 * 1024);
    expect(model.entities['Claim']!.fields['photos']!.maxSize).toBe(10 * 1024 * 1024);
    expect(model.entities['User']!.fields['avatar']).toMatchObject({ maxSize: 10 * 1024 * 1024 });
  });

  it('reads a size in each of its forms', () => {
    expect(parseSize('10MB')).toBe(10 * 1024 * 1024);
    expect(parseSize('512KB')).toBe(512 * 1024);
    expect(parseSize('512 kb')).toBe(512 * 1024);
    expect(parseSize('1.5GB')).toBe(1610612736);
    expect(parseSize(2048)).toBe(2048);
    expect(parseSize('2048')).toBe(2048);
    for (const bad of ['10 B', 'MB', '1,5MB', '10MiB', '-1KB', '10 megabytes', 1.5, -2, true, null]) {
      expect(parseSize(bad), String(bad)).toBeNull();
    }
  });

  it('counts the files of a list with minLength and maxLength', () => {
    const model = compiled(
      claims(', many: true, minLength: 1, maxLength: MAX_FILES', '', 'constants: { MAX_FILES: 4 }'),
    );
    expect(model.entities['Claim']!.fields['receipt']).toMatchObject({
      minLength: { value: 1, constant: null },
      maxLength: { value: 4, constant: 'MAX_FILES' },
    });
  });

  it('lets rules and permissions read a file’s members, and a list’s size', () => {
    const model = compiled(
      claims(
        '',
        '',
        `constants: { MAX_PHOTO: 1048576 }
  rules:
    - { id: small-receipt, entity: Claim, assert: "!has(receipt) || receipt.size < 2 * 1024 * 1024" }
    - { id: receipt-kind, entity: Claim, assert: "receipt.type.startsWith('image/') || receipt.name.endsWith('.pdf')" }
    - { id: few-photos, entity: Claim, assert: "size(photos) <= 5 && photos.all(p, p.size < MAX_PHOTO)" }
  roles:
    clerk:
      Claim: { read: "has(receipt) && receipt.size > 0 && receipt.type.startsWith('image/') && size(photos) < 3" }`,
      ),
    );
    expect(model.rules.map((r) => r.id)).toEqual(['small-receipt', 'receipt-kind', 'few-photos']);
    expect(model.roles['clerk']!.entities['Claim']!.read).toMatchObject({
      any: [{ source: expect.stringContaining('has(self.receipt)') }],
    });
  });
});

describe('the diagnostics of a file field', () => {
  it('NF224: a size it cannot read, with the forms it can', () => {
    expectDiagnostic(claims(', maxSize: 10 megabytes'), {
      code: 'NF224',
      line: 5,
      column: 39,
      message: /`maxSize` of field `Claim.receipt` is not a size, found the text "10 megabytes"/,
      hint: /`10MB`, `512KB`, `1.5GB` or a whole number of bytes/,
    });
  });

  it('NF224: limits.maxUploadSize in a unit it does not know', () => {
    expectDiagnostic(claims('', '', 'limits: { maxUploadSize: 1KiB }'), {
      code: 'NF224',
      line: 8,
      column: 26,
      message: /`limits.maxUploadSize` is not a size/,
      hint: /powers of 1024/,
    });
  });

  it('NF601: limits.maxUploadSize below 1KB; NF207: a maxSize of nothing', () => {
    expectDiagnostic(claims('', '', 'limits: { maxUploadSize: 100 }'), {
      code: 'NF601',
      line: 8,
      column: 26,
      message: /between 1KB and 5GB, found 100 bytes/,
    });
    expectDiagnostic(claims(', maxSize: 0'), {
      code: 'NF207',
      line: 5,
      column: 39,
      message: /between 1 byte and 5GB, found 0 bytes/,
    });
  });

  it('NF228: an accept entry that is not a media type', () => {
    expectDiagnostic(claims(', accept: [pdf, image/*]'), {
      code: 'NF228',
      line: 5,
      column: 39,
      message: /The text "pdf" in `accept` of field `Claim.receipt` is not a media type/,
      hint: /`type\/subtype` or `type\/\*`/,
    });
  });

  it('NF228: an image that accepts what is not an image', () => {
    expectDiagnostic(claims('', 'photo: { type: image, accept: [image/png, application/pdf] }'), {
      code: 'NF228',
      line: 7,
      column: 49,
      message: /Field `Claim.photo` is an image, so it cannot accept `application\/pdf`/,
      hint: /make it `type: file`/,
    });
  });

  it('NF210: a media type accepted twice', () => {
    expectDiagnostic(claims(', accept: [application/pdf, application/PDF]'), {
      code: 'NF210',
      line: 5,
      column: 56,
      message: /`application\/pdf` is listed twice/,
    });
  });

  it('NF206: unique, a length on one file, a size on a text', () => {
    expectDiagnostic(claims(', unique: true'), {
      code: 'NF206',
      line: 5,
      column: 30,
      message: /`unique` does not apply to a file field/,
    });
    expectDiagnostic(claims(', maxLength: 2'), {
      code: 'NF206',
      line: 5,
      column: 30,
      message: /`maxLength` does not apply to a file field/,
    });
    expectDiagnostic(claims('', 'note: { type: text, maxSize: 10MB }'), {
      code: 'NF206',
      line: 7,
      column: 27,
      message: /`maxSize` does not apply to a text field/,
      hint: /use `type: file` or `type: image`/,
    });
  });

  it('NF208: a default', () => {
    expectDiagnostic(claims(', default: { expr: "null" }'), {
      code: 'NF208',
      line: 5,
      column: 39,
      message: /Field `Claim.receipt` holds files, which have no default/,
      hint: /leave `default` out/,
    });
  });

  it('NF226: a computed file', () => {
    expectDiagnostic(claims(', computed: "self.receipt"'), {
      code: 'NF226',
      line: 5,
      column: 30,
      message: /is a file, which cannot be computed/,
    });
  });

  it('NF313: a file as the display field, in search, set by a transition', () => {
    const display = spec`
      entities:
        Claim:
          display: receipt
          search: [receipt]
          fields: { title: string, receipt: file }
    `;
    expectDiagnostic(display, {
      code: 'NF313',
      line: 3,
      column: 14,
      message: /holds files, so it cannot be the title/,
    });
    expectDiagnostic(display, {
      code: 'NF313',
      line: 4,
      column: 14,
      message: /only text fields can be searched/,
    });
    expectDiagnostic(
      claims(
        '',
        '',
        `states:
    Claim:
      initial: draft
      states: { draft: { label: Draft }, sent: { label: Sent } }
      transitions:
        send: { from: draft, to: sent, require: [receipt], set: { receipt: "null" } }`,
      ),
      {
        code: 'NF313',
        line: 13,
        column: 65,
        message: /`Claim.receipt` holds files, so transition `Claim.send` cannot set it/,
      },
    );
  });

  it('NF309, NF325, NF302, NF229, NF230: an owner, a via, a sort, a widget’s measure and group', () => {
    expectDiagnostic(
      spec`
        entities:
          Claim: { owner: receipt, fields: { receipt: file } }
      `,
      { code: 'NF309', line: 2, column: 19, message: /`receipt` is a file/ },
    );
    expectDiagnostic(
      spec`
        entities:
          Claim: { fields: { lines: { type: children, entity: Line, via: doc } } }
          Line: { fields: { doc: file } }
      `,
      { code: 'NF325', line: 2, column: 66, message: /`Line.doc` is a file/ },
    );
    const screens = claims(
      '',
      '',
      `screens:
    claims: { kind: list, entity: Claim, sort: receipt }
    home:
      kind: dashboard
      widgets:
        - { title: A, entity: Claim, by: receipt }
        - { title: B, entity: Claim, measure: sum(receipt) }`,
    );
    expectDiagnostic(screens, { code: 'NF302', line: 9, column: 46, message: /no sortable field `receipt`/ });
    expectDiagnostic(screens, { code: 'NF230', line: 13, column: 40, message: /cannot group by `receipt`/ });
    expectDiagnostic(screens, { code: 'NF229', line: 14, column: 45, message: /cannot sum `receipt`/ });
  });
});

describe('a file in an expression', () => {
  const rule = (assert: string) =>
    claims('', '', `rules:\n    - { id: check, entity: Claim, assert: "${assert}" }`);

  it('NF331: a member a file does not have, named with the four it has', () => {
    expectDiagnostic(rule("receipt.mime == 'application/pdf'"), {
      code: 'NF331',
      line: 9,
      column: 50,
      message: /reads `mime` of a file, which has only `id`, `name`, `size`, `type`/,
      hint: /expected one of `id`, `name`, `size`, `type`/,
    });
  });

  it('NF331: a misspelt member of a file in a list, with the member meant', () => {
    expectDiagnostic(rule('photos.all(p, p.sise < 1024)'), {
      code: 'NF331',
      line: 9,
      column: 58,
      message: /reads `sise` of a file/,
      hint: /did you mean `size`\?/,
    });
  });

  it('NF404: a file where a condition is expected, named as a file', () => {
    expectDiagnostic(rule('receipt'), { code: 'NF404', line: 9, column: 42, message: /but it is a file\./ });
    expectDiagnostic(rule('photos'), {
      code: 'NF404',
      line: 9,
      column: 42,
      message: /but it is a list of files\./,
    });
  });

  it('NF403: a size compared with text', () => {
    expectDiagnostic(rule("receipt.size < 'big'"), { code: 'NF403', line: 9, column: 42 });
  });

  it('NF405: a read permission that tests a member of a file for presence', () => {
    expectDiagnostic(claims('', '', 'roles:\n    clerk:\n      Claim: { read: "has(receipt.size)" }'), {
      code: 'NF405',
      line: 10,
      column: 21,
      message: /test the file itself, `has\(receipt\)`/,
    });
  });

  it('NF405: a read permission that goes through each file of a list', () => {
    expectDiagnostic(
      claims('', '', 'roles:\n    clerk:\n      Claim: { read: "photos.all(p, p.size < 10)" }'),
      {
        code: 'NF405',
        line: 10,
        column: 21,
        message: /runs as SQL, but the method `all` has no SQL translation/,
      },
    );
  });
});
