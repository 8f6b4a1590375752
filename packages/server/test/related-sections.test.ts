/**
 * The request of a related section (decision 0047) on every database: a ticket's page asks for
 * `GET /api/comments?ticket[eq]=<id>&sort=-createdAt&limit=10&total=true`, and the server answers
 * only the children of that ticket the viewer may read, paged by cursor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '@ninefold/testkit';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: a related section's request`, () => {
    let world: World;
    let cara: Client, agnes: Client, lee: Client;
    let acme: string;
    let ticket: string;

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'helpdesk.md', {
        cara: ['customer'],
        agnes: ['agent'],
        lee: ['lead'],
      });
      ({ cara, agnes, lee } = world.as as Record<'cara' | 'agnes' | 'lee', Client>);
      const created = await lee.post('/api/organizations', { name: 'ACME', domain: 'acme.example' });
      expect(created.statusCode, created.body).toBe(201);
      acme = String(body(created)['id']);
      await world.server.database.db
        .updateTable('users')
        .set({ organization: acme })
        .where('id', '=', cara.id)
        .execute();
      const opened = async () => {
        const response = await cara.post('/api/tickets', {
          subject: 'Cannot sign in',
          description: 'Loops.',
        });
        expect(response.statusCode, response.body).toBe(201);
        return String(body(response)['id']);
      };
      ticket = await opened();
      const other = await opened();
      // twelve comments on the ticket, every third an internal note; one on another ticket
      for (let i = 1; i <= 12; i++) {
        const response = await agnes.post('/api/comments', {
          ticket,
          organization: acme,
          body: `Comment ${i}`,
          internal: i % 3 === 0,
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      const elsewhere = await agnes.post('/api/comments', {
        ticket: other,
        organization: acme,
        body: 'Elsewhere',
      });
      expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    }, 60_000);

    const section = (who: Client, cursor?: string) =>
      who.get(
        `/api/comments?ticket%5Beq%5D=${ticket}&sort=-createdAt&limit=10&total=true${cursor === undefined ? '' : `&cursor=${cursor}`}`,
      );

    it('answers the ticket’s children alone, ten at a time, to an agent', async () => {
      const first = body(await section(agnes));
      expect(first['total']).toBe(12);
      const rows = first['data'] as Json[];
      expect(rows).toHaveLength(10);
      expect(rows.every((row) => row['ticket'] === ticket)).toBe(true);
      const next = body(await section(agnes, String(first['nextCursor'])));
      const all = [...rows, ...(next['data'] as Json[])].map((row) => row['body']);
      expect(all).toHaveLength(12);
      expect(new Set(all).size).toBe(12);
      expect(all).not.toContain('Elsewhere');
    });

    it('answers a customer only the comments they may read', async () => {
      const answer = body(await section(cara));
      expect(answer['total']).toBe(8);
      const rows = answer['data'] as Json[];
      expect(rows.map((row) => row['internal'])).not.toContain(true);
      expect(rows.every((row) => row['ticket'] === ticket)).toBe(true);
    });
  });
}
