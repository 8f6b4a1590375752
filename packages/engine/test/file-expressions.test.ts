/**
 * A file inside an expression (decision 0051): a `ninefold.File` of `id`, `name`, `size` (an int)
 * and `type`, a `many` field a list of them. Rules about a receipt's size give true or false, never
 * an error, in either activation (the browser and the server evaluate alike); a file not yet saved
 * (its id alone) is no file.
 */
import { describe, expect, it } from 'vitest';
import { activation, evaluate, lazyActivation } from '../src/expressions.js';
import { NOW, alice, model } from './fixtures.js';

const m = model(`
product: { name: Receipts }
constants: { MAX_PHOTO: 1048576 }
entities:
  Claim:
    fields:
      title: string
      receipt: { type: file, accept: [application/pdf, image/*] }
      photos: { type: image, many: true, maxLength: 5 }
`);

const pdf = { id: 'f1', name: 'scan.pdf', size: 1000, type: 'application/pdf' };
const big = { id: 'f2', name: 'photo.png', size: 3 * 1024 * 1024, type: 'image/png' };
const small = { id: 'f3', name: 'p.webp', size: 10, type: 'image/webp' };

const outcome = (expr: string, record: Record<string, unknown>, lazy = false) =>
  evaluate(
    m,
    'Claim',
    expr,
    (lazy ? lazyActivation : activation)(m, 'Claim', record as never, { user: alice, now: NOW }),
  );

describe('a file in an expression', () => {
  it('reads a file as its members, its size an int', () => {
    const vars = activation(m, 'Claim', { receipt: pdf, photos: [small, big] }, { user: alice, now: NOW });
    expect(vars['receipt']).toEqual({ id: 'f1', name: 'scan.pdf', size: 1000n, type: 'application/pdf' });
    expect((vars['photos'] as unknown[]).map((p) => (p as { size: bigint }).size)).toEqual([10n, 3145728n]);
  });

  for (const lazy of [false, true]) {
    describe(lazy ? 'in a lazy activation' : 'in an activation', () => {
      it('compares a size: true or false, not an error', () => {
        expect(outcome('receipt.size < 2 * 1024 * 1024', { receipt: pdf }, lazy)).toEqual({
          ok: true,
          value: true,
        });
        expect(outcome('receipt.size < 2 * 1024 * 1024', { receipt: big }, lazy)).toEqual({
          ok: true,
          value: false,
        });
      });

      it('reads the type, the name and the id as text', () => {
        expect(outcome("receipt.type.startsWith('image/')", { receipt: big }, lazy)).toEqual({
          ok: true,
          value: true,
        });
        expect(outcome("receipt.name.endsWith('.pdf')", { receipt: big }, lazy)).toEqual({
          ok: true,
          value: false,
        });
        expect(outcome("receipt.id == 'f1'", { receipt: pdf }, lazy)).toEqual({ ok: true, value: true });
      });

      it('tells whether there is a file', () => {
        expect(outcome('has(self.receipt)', { receipt: pdf }, lazy)).toEqual({ ok: true, value: true });
        expect(outcome('has(self.receipt)', { title: 'x' }, lazy)).toEqual({ ok: true, value: false });
        // an id not yet saved is not a file: no member can be read of it
        expect(outcome('has(self.receipt)', { receipt: 'f1' }, lazy)).toEqual({ ok: true, value: false });
        expect(outcome('receipt.size > 0', { receipt: 'f1' }, lazy).ok).toBe(false);
      });

      it('counts a list of files and reads each', () => {
        expect(outcome('size(photos) <= 5', { photos: [small, big] }, lazy)).toEqual({
          ok: true,
          value: true,
        });
        expect(outcome('photos.all(p, p.size < MAX_PHOTO)', { photos: [small, big] }, lazy)).toEqual({
          ok: true,
          value: false,
        });
        expect(outcome('photos.all(p, p.size < MAX_PHOTO)', { photos: [small] }, lazy)).toEqual({
          ok: true,
          value: true,
        });
        expect(outcome("photos.exists(p, p.type == 'image/png')", { photos: [small, big] }, lazy)).toEqual({
          ok: true,
          value: true,
        });
      });
    });
  }
});
