import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

/** A ticket with comments (one ref to it) and pairs (two refs to it, and one to a note). */
const entities = `
entities:
  Ticket: { fields: { subject: string } }
  Note: { fields: { text: string } }
  Comment:
    fields:
      ticket: { type: ref, to: Ticket }
      body: string
  Pair:
    fields:
      from: { type: ref, to: Ticket }
      to: { type: ref, to: Ticket }
      note: { type: ref, to: Note }
`;

function withScreen(screen: string): string {
  return `${entities.replace(/^\n/, '')}screens:\n${screen}`;
}

/** The line of the screen: the entities take 12 lines, `screens:` the 13th. */
const SCREEN = 14;

describe('a detail screen’s related sections', () => {
  it('keeps the sections named, in their order, and null without the key', () => {
    const result = compile(
      withScreen(
        [
          '  ticket:',
          '    kind: detail',
          '    entity: Ticket',
          '    related: [Pair.to, Comment.ticket, Pair.from]',
          '  note:',
          '    kind: detail',
          '    entity: Note',
        ].join('\n'),
      ),
      { file: 'spec.yaml' },
    );
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    const screen = (id: string) => result.model.screens.find((s) => s.id === id);
    expect(screen('ticket')?.related).toEqual([
      { entity: 'Pair', via: 'to' },
      { entity: 'Comment', via: 'ticket' },
      { entity: 'Pair', via: 'from' },
    ]);
    expect(screen('note')?.related).toBeNull();
    // generated detail screens take the default too
    expect(screen('comments-detail')?.related).toBeNull();
  });

  it('reads `[]` as no section at all', () => {
    const result = compile(withScreen('  ticket: { kind: detail, entity: Ticket, related: [] }'), {
      file: 'spec.yaml',
    });
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (result.ok) expect(result.model.screens.find((s) => s.id === 'ticket')?.related).toEqual([]);
  });

  it('NF301: an unknown child entity, with a suggestion', () => {
    expectDiagnostic(withScreen('  ticket: { kind: detail, entity: Ticket, related: [Coment.ticket] }'), {
      code: 'NF301',
      line: SCREEN,
      column: 53,
      message: /`Coment` is not a declared entity/,
      hint: /did you mean `Comment`\?/,
    });
  });

  it('NF302: an unknown field of the child, with a suggestion', () => {
    expectDiagnostic(withScreen('  ticket: { kind: detail, entity: Ticket, related: [Comment.tiket] }'), {
      code: 'NF302',
      line: SCREEN,
      column: 53,
      message: /`Comment` has no field `tiket`/,
      hint: /did you mean `ticket`\?/,
    });
  });

  it('NF302: a child without its field names the refs that would do', () => {
    expectDiagnostic(withScreen('  ticket: { kind: detail, entity: Ticket, related: [Pair] }'), {
      code: 'NF302',
      line: SCREEN,
      column: 53,
      message: /`Pair` names no field/,
      hint: /write `Pair.from` or `Pair.to`/,
    });
  });

  it('NF329: a `via` that is a ref to another entity names the refs that would do', () => {
    expectDiagnostic(withScreen('  ticket: { kind: detail, entity: Ticket, related: [Pair.note] }'), {
      code: 'NF329',
      line: SCREEN,
      column: 53,
      message: /`Pair.note` is a ref to `Note`, not a ref to `Ticket`/,
      hint: /use `Pair.from` or `Pair.to`/,
    });
  });

  it('NF329: a `via` that is not a ref at all, on a child with no ref to the parent', () => {
    expectDiagnostic(withScreen('  note: { kind: detail, entity: Note, related: [Comment.body] }'), {
      code: 'NF329',
      line: SCREEN,
      column: 49,
      message: /`Comment.body` is a string field, not a ref to `Note`/,
      hint: /`Comment` has no ref to `Note`: add one/,
    });
  });

  it('NF233: `related` on a screen that is not a detail screen', () => {
    expectDiagnostic(
      spec`
        entities:
          Ticket: { fields: { subject: string } }
          Comment: { fields: { ticket: { type: ref, to: Ticket } } }
        screens:
          tickets:
            entity: Ticket
            related: [Comment.ticket]
      `,
      {
        code: 'NF233',
        line: 7,
        column: 5,
        message: /`related` lists the sections of a record's page, but screen `tickets` is a list screen/,
        hint: /detail screen/,
      },
    );
  });

  it('NF330: the same section twice', () => {
    expectDiagnostic(
      withScreen('  ticket: { kind: detail, entity: Ticket, related: [Comment.ticket, Comment.ticket] }'),
      {
        code: 'NF330',
        line: SCREEN,
        column: 69,
        message: /`Comment.ticket` is listed twice/,
      },
    );
  });
});
