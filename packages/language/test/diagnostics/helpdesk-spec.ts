/**
 * The spec section 7's diagnostics tests are written against: a small helpdesk whose lines are
 * numbered, so that each test can say where its diagnostic is.
 */

/** A helpdesk spec of 18 lines, then the given lines: the first of them is line 19. */
export function helpdesk(...lines: string[]): string {
  return [
    'entities:',
    '  Ticket:',
    '    fields:',
    '      subject: string',
    '      lastReply: text',
    '      requester: { type: ref, to: User }',
    '      watchers: { type: ref, to: User, many: true }',
    '      contact: email',
    '      priority: integer',
    '      team: { type: ref, to: Team }',
    '  Team: { fields: { name: string } }',
    'roles:',
    '  agent: { Ticket: { read: true }, Team: { read: true } }',
    'states:',
    '  Ticket:',
    '    initial: open',
    '    transitions:',
    '      answer: { from: open, to: answered, roles: [agent] }',
    ...lines,
    '',
  ].join('\n');
}
