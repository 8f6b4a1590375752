/**
 * Section 7's notifications: the model they compile to, and every mistake `ninefold check` reports
 * in them, at its line and column, with its hint.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';
import { helpdesk } from './helpdesk-spec.js';

/** A notification `n` on `Ticket.answer` with the given keys; its keys start on line 21. */
function notification(...keys: string[]): string {
  return helpdesk('notifications:', '  n:', ...keys.map((k) => `    ${k}`));
}

const ANSWERED = ['on: Ticket.answer', 'to: [requester]'];

describe('notifications compile', () => {
  it('to the model: events, each kind of recipient, channels, texts and mandatory', () => {
    const result = compile(
      helpdesk(
        'notifications:',
        '  ticket-answered:',
        '    on: Ticket.answer',
        '    to: [requester, watchers, agent, contact]',
        '    channels: [app, email]',
        '    subject: "Your ticket “{subject}” was answered"',
        '    message: "{user.name} answered: {lastReply}"',
        '    mandatory: true',
        '  ticket-changed:',
        '    on: [Ticket.created, Ticket.updated, Ticket.deleted]',
        '    to: agent',
        '    subject: "{id} {state} {createdAt} {updatedAt} {user.id} {user.email}"',
      ),
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.model.notifications).toEqual({
      'ticket-answered': {
        name: 'ticket-answered',
        on: [{ entity: 'Ticket', kind: 'transition', transition: 'answer', name: 'Ticket.answer' }],
        to: [
          { kind: 'user', field: 'requester' },
          { kind: 'user', field: 'watchers' },
          { kind: 'role', role: 'agent' },
          { kind: 'email', field: 'contact' },
        ],
        channels: ['app', 'email'],
        subject: 'Your ticket “{subject}” was answered',
        message: '{user.name} answered: {lastReply}',
        mandatory: true,
      },
      'ticket-changed': {
        name: 'ticket-changed',
        on: [
          { entity: 'Ticket', kind: 'created', transition: null, name: 'Ticket.created' },
          { entity: 'Ticket', kind: 'updated', transition: null, name: 'Ticket.updated' },
          { entity: 'Ticket', kind: 'deleted', transition: null, name: 'Ticket.deleted' },
        ],
        to: [{ kind: 'role', role: 'agent' }],
        channels: ['app'],
        subject: '{id} {state} {createdAt} {updatedAt} {user.id} {user.email}',
        message: '',
        mandatory: false,
      },
    });
    expect(result.model.facets.calls.specified).toBe(true);
  });

  it('NF214: an event not written `Entity.event`', () => {
    expectDiagnostic(notification('on: [Ticket.answer, answered]', 'to: [requester]', 'subject: Hi'), {
      code: 'NF214',
      line: 21,
      column: 25,
      message: /`answered` in `on` of notification `n` is not an event/,
      hint: /`Entity.created`, `Entity.updated`, `Entity.deleted` or `Entity.<transition>`/,
    });
  });

  it('NF301: an event on an unknown entity', () => {
    expectDiagnostic(notification('on: Tickets.answer', 'to: [requester]', 'subject: Hi'), {
      code: 'NF301',
      line: 21,
      column: 9,
      message: /`Tickets` is not a declared entity, so notification `n` cannot listen to its changes/,
      hint: /did you mean `Ticket`\?/,
    });
  });

  it('NF301: an event on the built-in users', () => {
    expectDiagnostic(notification('on: User.created', 'to: [agent]', 'subject: Hi'), {
      code: 'NF301',
      line: 21,
      column: 9,
      message: /`User` is the built-in entity of users/,
    });
  });

  it('NF307: an event naming an unknown transition', () => {
    expectDiagnostic(notification('on: "Ticket.anwser"', 'to: [requester]', 'subject: Hi'), {
      code: 'NF307',
      line: 21,
      column: 17,
      message: /`anwser` is neither `created`, `updated`, `deleted` nor a transition of `Ticket`/,
      hint: /did you mean `answer`\?/,
    });
  });

  it('NF210: an event listed twice', () => {
    expectDiagnostic(notification('on: [Ticket.answer, Ticket.answer]', 'to: [requester]', 'subject: Hi'), {
      code: 'NF210',
      line: 21,
      column: 25,
      message: /`Ticket.answer` is listed twice/,
    });
  });

  it('NF203: a notification without `on`, `to` or `subject`, or with an empty list', () => {
    expectDiagnostic(notification('to: [requester]', 'subject: Hi'), {
      code: 'NF203',
      line: 20,
      column: 3,
      message: /Notification `n` needs `on`/,
    });
    expectDiagnostic(notification('on: Ticket.answer', 'subject: Hi'), {
      code: 'NF203',
      line: 20,
      column: 3,
      message: /needs `to`/,
    });
    expectDiagnostic(notification(...ANSWERED), {
      code: 'NF203',
      line: 20,
      column: 3,
      message: /needs `subject`/,
    });
    expectDiagnostic(notification('on: []', 'to: [requester]', 'subject: Hi'), {
      code: 'NF203',
      line: 21,
      column: 9,
      message: /lists no event/,
    });
  });

  it('NF318: a recipient field that is not a ref to User nor an email', () => {
    expectDiagnostic(notification('on: Ticket.answer', 'to: [priority]', 'subject: Hi'), {
      code: 'NF318',
      line: 22,
      column: 10,
      message:
        /`Ticket.priority` is an integer field; notification `n` can go only to a ref to User, an email field or a role/,
      hint: /`requester`, `watchers`, `contact`, `agent`/,
    });
    expectDiagnostic(notification('on: Ticket.answer', 'to: team', 'subject: Hi'), {
      code: 'NF318',
      line: 22,
      column: 9,
      message: /`Ticket.team` is a ref to `Team`/,
    });
  });

  it('NF318: a recipient that is neither a field nor a role', () => {
    expectDiagnostic(notification('on: Ticket.answer', 'to: [requestor]', 'subject: Hi'), {
      code: 'NF318',
      line: 22,
      column: 10,
      message: /`requestor` is neither a ref to User, an email field of `Ticket` nor a role/,
      hint: /did you mean `requester`\?/,
    });
  });

  it('NF319: an email field as recipient without the email channel', () => {
    expectDiagnostic(notification('on: Ticket.answer', 'to: [requester, contact]', 'subject: Hi'), {
      code: 'NF319',
      line: 22,
      column: 21,
      message:
        /`contact` is an email field, whose address only e-mail reaches, but notification `n` is not sent by `email`/,
      hint: /add `email` to `channels`/,
    });
  });

  it('NF211: a channel other than app or email; NF210: one listed twice', () => {
    expectDiagnostic(notification(...ANSWERED, 'channels: [app, emial]', 'subject: Hi'), {
      code: 'NF211',
      line: 23,
      column: 21,
      message: /`emial` is not a channel of notification `n`/,
      hint: /did you mean `email`\?/,
    });
    expectDiagnostic(notification(...ANSWERED, 'channels: [app, app]', 'subject: Hi'), {
      code: 'NF210',
      line: 23,
      column: 21,
      message: /channel `app` is listed twice/,
    });
  });

  it('NF501: a subject that is not ICU MessageFormat', () => {
    expectDiagnostic(notification(...ANSWERED, 'subject: "Answered {subject"'), {
      code: 'NF501',
      line: 23,
      column: 24,
      message: /The subject of notification `n` is not valid ICU MessageFormat/,
      hint: /`\{user.name\}`/,
    });
  });

  it('NF320: a text naming a field the record does not have, or an actor field that does not exist', () => {
    expectDiagnostic(notification(...ANSWERED, 'subject: "About {subjet}"'), {
      code: 'NF320',
      line: 23,
      column: 22,
      message: /The subject of notification `n` uses `\{subjet\}`, which `Ticket` does not have/,
      hint: /did you mean `subject`\?/,
    });
    expectDiagnostic(notification(...ANSWERED, 'subject: Hi', 'message: "{user.nmae} answered"'), {
      code: 'NF320',
      line: 24,
      column: 16,
      message: /The message of notification `n` uses `\{user.nmae\}`/,
      hint: /did you mean `user.name`\?/,
    });
    expectDiagnostic(notification(...ANSWERED, 'subject: "{n, plural, one {# {titel}} other {#}}"'), {
      code: 'NF320',
      line: 23,
      column: 35,
      message: /uses `\{titel\}`/,
    });
  });

  it('reads angle brackets as text, as the renderer does, and still checks the names between them', () => {
    const ok = compile(notification(...ANSWERED, 'subject: "<b>{subject}</b> a < b"'), { file: 'spec.yaml' });
    if (!ok.ok) expect.fail(listed(ok.diagnostics));
    expectDiagnostic(notification(...ANSWERED, 'subject: "<b>{subjct}</b>"'), {
      code: 'NF320',
      line: 23,
      column: 19,
      message: /uses `\{subjct\}`/,
    });
  });

  it('NF320: a state named on an entity without a state machine', () => {
    expectDiagnostic(
      helpdesk('notifications:', '  n:', '    on: Team.created', '    to: [agent]', '    subject: "{state}"'),
      { code: 'NF320', line: 23, column: 16, message: /uses `\{state\}`, which `Team` does not have/ },
    );
  });

  it('NF201 and NF204: an unknown key, and a name that is not kebab-case', () => {
    expectDiagnostic(notification(...ANSWERED, 'subject: Hi', 'mandatroy: true'), {
      code: 'NF201',
      line: 24,
      column: 5,
      hint: /did you mean `mandatory`\?/,
    });
    expectDiagnostic(
      helpdesk('notifications:', '  ticketAnswered: { on: Ticket.answer, to: agent, subject: Hi }'),
      {
        code: 'NF204',
        line: 20,
        column: 3,
        message: /notification name `ticketAnswered`/,
        hint: /kebab-case/,
      },
    );
  });
});

describe('events are one change each', () => {
  it('NF209: a transition named like a lifecycle event', () => {
    expectDiagnostic(
      spec`
        entities:
          Ticket: { fields: { subject: string } }
        states:
          Ticket:
            initial: open
            transitions:
              created: { from: open, to: done }
      `,
      {
        code: 'NF209',
        line: 7,
        column: 7,
        message: /`created` names a change every record has \(the event `Ticket.created`\)/,
        hint: /call it something else/,
      },
    );
  });
});
