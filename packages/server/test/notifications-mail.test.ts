/**
 * Notifications by e-mail, on every database: through a real SMTP server the test starts
 * (smtp-server), with an HTML and a text part, the product's name as the sender's name and a link
 * to the record; to an outside address, with only the fields every reader of the entity may read;
 * retried while the SMTP server is down and delivered once it is back; and without SMTP_URL, kept
 * in the development outbox that only admins read.
 */
import { type AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, problem } from '@ninefold/testkit';
import { MAIL_JOB, mailSettings } from '../src/index.js';
import { helpDesk, helpDeskWorld, jobsOf, notification } from './notifications-world.js';

/** An SMTP server on 127.0.0.1 that keeps what it receives; on `port` if given. */
async function smtpServer(port = 0) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const open = { server, received, port: (server.server.address() as AddressInfo).port };
  servers.push(open.server);
  return open;
}

const servers: SMTPServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

const emailed = notification('ticket-answered', {
  to: [
    { kind: 'user', field: 'requester' },
    { kind: 'email', field: 'contact' },
  ],
  channels: ['app', 'email'],
  subject: 'Answered: {subject}',
  message: '{user.name} answered “{subject}”.\n\nSecret: {secret}',
});

describe('mail settings', () => {
  it('read SMTP_URL, MAIL_FROM and NINEFOLD_PUBLIC_URL, and refuse malformed ones by name', () => {
    expect(mailSettings({})).toEqual({ smtpUrl: null, from: 'no-reply@localhost', publicUrl: null });
    expect(
      mailSettings({
        SMTP_URL: 'smtps://u:p@mail.example.com',
        MAIL_FROM: 'help@example.com',
        NINEFOLD_PUBLIC_URL: 'https://x.example',
      }),
    ).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com',
      from: 'help@example.com',
      publicUrl: 'https://x.example',
    });
    expect(() => mailSettings({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => mailSettings({ NINEFOLD_PUBLIC_URL: 'help.example.com' })).toThrow(/NINEFOLD_PUBLIC_URL/);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: notifications by e-mail`, () => {
    it('sends HTML and text through SMTP, from the product, with a link, to users and outside addresses', async () => {
      const smtp = await smtpServer();
      const w = await helpDeskWorld(dialect, helpDesk(emailed), {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'help@example.com',
        NINEFOLD_PUBLIC_URL: 'https://help.example.com/',
      });
      const { cid } = w.people;
      const ticket = await w.answeredTicket({
        subject: 'Printer <jam> & smoke',
        secret: 'door code 1234',
        requester: cid.id,
        contact: 'Boss@Outside.example',
      });
      await w.runAll();
      expect(await jobsOf(w.server, MAIL_JOB, 'done')).toHaveLength(2);
      expect(smtp.received).toHaveLength(2);
      const byAddress = new Map(
        smtp.received.map((mail) => [mail.to && !Array.isArray(mail.to) ? mail.to.text : '', mail]),
      );
      const toCid = byAddress.get(cid.email)!;
      const toBoss = byAddress.get('boss@outside.example')!;
      for (const mail of [toCid, toBoss]) {
        expect(mail.from?.value).toEqual([{ name: 'Help Desk', address: 'help@example.com' }]);
        expect(mail.subject).toBe('Answered: Printer <jam> & smoke');
        expect(mail.text).toContain('ann answered “Printer <jam> & smoke”.');
        expect(mail.text).toContain(`https://help.example.com/tickets/${String(ticket['id'])}`);
        // the HTML part escapes the record's values: they are text, never markup
        expect(mail.html).toContain('ann answered “Printer &lt;jam&gt; &amp; smoke”.');
        expect(mail.html).not.toContain('<jam>');
        expect(mail.html).toContain(`<a href="https://help.example.com/tickets/${String(ticket['id'])}">`);
        // a customer may not read the secret, so neither the customer nor an outsider is told it
        expect(`${mail.text ?? ''}${String(mail.html)}`).not.toContain('1234');
      }
      // each mail is its own job's: a repeat of one would carry the same Message-ID
      expect(toCid.messageId).not.toBe(toBoss.messageId);
    });

    it('retries while the SMTP server is down, then delivers once it is back', async () => {
      const probe = await smtpServer();
      const port = probe.port;
      await new Promise<void>((resolve) => probe.server.close(() => resolve()));
      servers.splice(servers.indexOf(probe.server), 1);
      const w = await helpDeskWorld(dialect, helpDesk(emailed), { SMTP_URL: `smtp://127.0.0.1:${port}` });
      await w.answeredTicket({ subject: 'Router', requester: w.people.cid.id });
      await w.runner.runDue(); // the notification: one mail job
      await w.runner.runDue(); // the mail: refused
      const [failed] = await jobsOf(w.server, MAIL_JOB);
      expect([failed?.['state'], Number(failed?.['attempts'])]).toEqual(['pending', 1]);
      expect(String(failed?.['last_error'])).toMatch(/ECONNREFUSED|connect/i);

      const smtp = await smtpServer(port);
      w.server.clock.advance(60_000); // past the first backoff (at most 10 s)
      expect(await w.runner.runDue()).toBe(1);
      const [sent] = await jobsOf(w.server, MAIL_JOB);
      expect([sent?.['state'], Number(sent?.['attempts'])]).toEqual(['done', 2]);
      expect(smtp.received.map((mail) => mail.subject)).toEqual(['Answered: Router']);
    });

    it('treats an address that is a user’s as that user: one who may not read the ticket gets no mail', async () => {
      const w = await helpDeskWorld(dialect, helpDesk(emailed));
      const { ada, cid, dee } = w.people;
      // Dee's address in the contact field: Dee is a customer who may not read Cid's ticket
      await w.answeredTicket({ subject: 'Badge', requester: cid.id, contact: dee.email.toUpperCase() });
      await w.runAll();
      const outbox = (await ada.send('GET', '/api/admin/mail'))['data'] as Record<string, string>[];
      expect(outbox.map((mail) => mail['to'])).toEqual([cid.email]);
    });

    it('keeps mail in the development outbox without SMTP_URL, for admins only', async () => {
      const w = await helpDeskWorld(dialect, helpDesk(emailed));
      const { ada, bob, cid } = w.people;
      await w.answeredTicket({ subject: 'Mouse', requester: cid.id, contact: 'boss@outside.example' });
      await w.runAll();
      w.server.clock.advance(1000);
      await w.answeredTicket({ subject: 'Cable', requester: cid.id });
      await w.runAll();
      const outbox = (await ada.send('GET', '/api/admin/mail'))['data'] as Record<string, string>[];
      // newest first: the Cable mail, then the two of the Mouse (one to Cid, one to the outsider)
      expect(outbox).toHaveLength(3);
      expect([outbox[0]?.['to'], outbox[0]?.['subject']]).toEqual([cid.email, 'Answered: Cable']);
      expect(
        outbox
          .slice(1)
          .map((mail) => `${mail['to']} ${mail['subject']}`)
          .sort(),
      ).toEqual(['boss@outside.example Answered: Mouse', `${cid.email} Answered: Mouse`]);
      expect(outbox[0]?.['text']).toContain('ann answered “Cable”.');
      expect(outbox[0]?.['html']).toContain('<p>ann answered “Cable”.</p>');

      const refused = await bob.call('GET', '/api/admin/mail');
      expect(refused.statusCode).toBe(403);
      expect(problem(refused).code).toBe('E_FORBIDDEN');
      const signedOut = await w.server.app.inject({ method: 'GET', url: '/api/admin/mail' });
      expect(signedOut.statusCode).toBe(401);
    });
  });
}
