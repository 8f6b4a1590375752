/**
 * Ref fields in a notification's text, on every database: a recipient who may read the referenced
 * record reads its title (as the app shows a ref), one who may not reads nothing there — never the
 * id — and a `many` ref is its readable titles joined with ", ". An outside address, who may read
 * no referenced record, reads nothing there either.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, specModel } from '@ninefold/testkit';
import { type Model } from '@ninefold/model';
import { TABLES } from '../src/index.js';
import { helpDeskWorld, inbox, notification } from './notifications-world.js';

const DESK = specModel(`
product: { name: Ref Desk }
entities:
  Team:
    fields:
      name: { type: string, required: true }
  Ticket:
    fields:
      subject: { type: string, required: true }
      requester: { type: ref, to: User }
      assignee: { type: ref, to: User }
      watchers: { type: ref, to: User, many: true }
      team: { type: ref, to: Team }
      contact: { type: email }
roles:
  agent:
    Team: { read: true, create: true }
    Ticket: { read: true, create: true, update: true }
    User: { read: true }
  customer:
    Ticket: { read: "requester == user.id" }
    User: { read: "id == user.id" }
  outsider:
    User: { read: true }
  admin:
    User: { read: true }
states:
  Ticket:
    initial: open
    transitions:
      answer: { from: [open, answered], to: answered, roles: [agent] }
`);

const MESSAGE = 'asked by {requester}; assignee {assignee}; team {team}; watched by {watchers}';

function refDesk(channels: ('app' | 'email')[] = ['app']): Model {
  const told = notification('ticket-answered', {
    to: [
      { kind: 'user', field: 'requester' },
      { kind: 'role', role: 'agent' },
      { kind: 'email', field: 'contact' },
    ],
    channels,
    subject: 'Answered: {subject}',
    message: MESSAGE,
  });
  return { ...DESK, notifications: { [told.name]: told } };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: refs in a notification's text`, () => {
    it('render as the titles a recipient may read, and as nothing where they may not', async () => {
      const w = await helpDeskWorld(dialect, refDesk());
      const { ann, bob, cid, dee } = w.people;
      const team = await ann.send('POST', '/api/teams', { name: 'Printers' });
      await w.answeredTicket({
        subject: 'Printer jam',
        requester: cid.id,
        assignee: bob.id,
        watchers: [cid.id, dee.id],
        team: team['id'],
      });
      expect(await w.runAll()).toBe(1);

      // Bob (agent) may read every user and the team: their titles, the watchers joined
      const bobs = await inbox(bob);
      expect(bobs.items.map((n) => n['message'])).toEqual([
        'asked by cid; assignee bob; team Printers; watched by cid, dee',
      ]);
      // Cid (customer) may read only their own User record and no team: the rest is empty
      const cids = await inbox(cid);
      expect(cids.items.map((n) => n['message'])).toEqual(['asked by cid; assignee ; team ; watched by cid']);
      const text = JSON.stringify(cids);
      for (const hidden of [bob.id, dee.id, String(team['id'])]) expect(text).not.toContain(hidden);
    });

    it('render as nothing to an outside address', async () => {
      const w = await helpDeskWorld(dialect, refDesk(['email']));
      const { ann, cid } = w.people;
      const team = await ann.send('POST', '/api/teams', { name: 'Printers' });
      await w.answeredTicket({
        subject: 'Printer jam',
        requester: cid.id,
        team: team['id'],
        contact: 'someone@outside.example',
      });
      await w.runAll();
      const rows = await w.server.database.db.selectFrom(TABLES.mailOutbox).selectAll().execute();
      const outside = rows.filter((row) => String(JSON.stringify(row)).includes('someone@outside.example'));
      expect(outside).toHaveLength(1);
      const body = JSON.stringify(outside[0]);
      expect(body).toContain('asked by ; assignee ; team ; watched by');
      expect(body).not.toContain(cid.id);
      expect(body).not.toContain(String(team['id']));
    });
  });
}
