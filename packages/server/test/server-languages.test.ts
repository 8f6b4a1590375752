/**
 * What the server itself writes for a person is in their language (decision 0067), through the
 * real server: a notification (in the app and by e-mail) in the language the recipient saved on
 * their account, else the spec's default; a CSV export's headers and words and a dashboard's group
 * labels in the reader's language (saved, else Accept-Language, else the default). The spec's own
 * words come from its translation file (decision 0068), the formats from the locale.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { CSRF, DIALECTS, checkedInject, givenUser, login, testServer } from '@ninefold/testkit';
import { helpDesk, helpDeskWorld, notification } from './notifications-world.js';

type Json = Record<string, unknown>;

const answered = notification('ticket-answered', {
  to: [
    { kind: 'user', field: 'requester' },
    { kind: 'user', field: 'watchers' },
  ],
  channels: ['app', 'email'],
  subject: 'Answered: {subject}',
  message: '{user.name} answered “{subject}” on {updatedAt, date, long}.',
});

/** The help desk in English and French, its notification translated by the spec's French file. */
function bilingualDesk(): Model {
  const model = helpDesk(answered);
  return {
    ...model,
    product: { ...model.product, locale: 'en-GB', locales: ['en-GB', 'fr-FR'] },
    translations: {
      'fr-FR': {
        'notifications.ticket-answered.subject': 'Répondu : {subject}',
        'notifications.ticket-answered.message':
          '{user.name} a répondu à « {subject} » le {updatedAt, date, long}.',
      },
    },
  };
}

const SPEC = `
product: { name: Shop, locales: [en-GB, fr-FR] }
entities:
  Order:
    fields:
      number: { type: integer, required: true }
      paid: boolean
      total: { type: money, currency: EUR }
      dueOn: date
      channel: { type: enum, values: [web, phone], valueLabels: { phone: By phone } }
states:
  Order:
    initial: draft
    states: { draft: { label: Being written }, sent: {} }
    transitions:
      send: { from: draft, to: sent }
roles:
  clerk: { Order: true }
screens:
  figures:
    kind: dashboard
    title: Figures
    widgets:
      - { title: By state, entity: Order, by: state }
      - { title: Paid or not, entity: Order, by: paid }
      - { title: By month, entity: Order, by: dueOn }
      - { title: By week, entity: Order, by: dueOn, bucket: week }
      - { title: By channel, entity: Order, by: channel }
`;

const FRENCH = `
entities:
  Order:
    label: Commande
    fields:
      number: { label: Numéro }
      paid: { label: Payée }
      total: { label: Montant }
      dueOn: { label: Échéance }
      channel: { label: Canal, values: { web: Site web, phone: Par téléphone } }
states:
  Order: { states: { draft: { label: En rédaction }, sent: { label: Envoyée } } }
`;

function shop(): Model {
  const result = compile(SPEC, { file: 'shop.yaml', translations: { 'shop.fr-FR.yaml': FRENCH } });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.model;
}

/** The lines of a CSV answer, each split into its cells (RFC 4180 quotes undone). */
function table(body: string): string[][] {
  return body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map((m) => (m[1] ?? '').replace(/^"(.*)"$/s, '$1').replace(/""/g, '"')),
    );
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the server writes in each person's language`, () => {
    it('tells each recipient of one change in the language they saved, in the app and by e-mail', async () => {
      const model = bilingualDesk();
      const w = await helpDeskWorld(dialect, model);
      const { ada, bob, cid } = w.people;
      // Cid saved French; Bob saved nothing (his browser's French does not reach a notification)
      await cid.send('PUT', '/api/account/locale', { locale: 'fr-FR' });
      const ticket = await w.answeredTicket({ subject: 'Câble', requester: cid.id, watchers: [bob.id] });
      await w.runAll();
      const at = new Date(String(ticket['updatedAt']));
      const day = (locale: string) =>
        new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(at);

      const inApp = async (person: typeof bob) =>
        ((await person.send('GET', '/api/notifications')) as { items: Json[] }).items.map((item) => [
          item['subject'],
          item['message'],
        ]);
      expect(await inApp(cid)).toEqual([
        ['Répondu : Câble', `ann a répondu à « Câble » le ${day('fr-FR')}.`],
      ]);
      expect(await inApp(bob)).toEqual([['Answered: Câble', `ann answered “Câble” on ${day('en-GB')}.`]]);
      expect(day('fr-FR')).not.toBe(day('en-GB'));

      const outbox = (await ada.send('GET', '/api/admin/mail'))['data'] as Record<string, string>[];
      const mailTo = (email: string) => outbox.find((mail) => mail['to'] === email);
      expect(mailTo(cid.email)?.['subject']).toBe('Répondu : Câble');
      expect(mailTo(cid.email)?.['text']).toContain(`ann a répondu à « Câble » le ${day('fr-FR')}.`);
      expect(mailTo(bob.email)?.['subject']).toBe('Answered: Câble');
      expect(mailTo(bob.email)?.['html']).toContain(`ann answered “Câble” on ${day('en-GB')}.`);
      await w.server.app.close();
    }, 120_000);

    it('exports CSV and labels a dashboard’s groups in the reader’s language', async () => {
      const model = shop();
      const server = await testServer(dialect, model);
      await givenUser(server, 'ann@example.com', ['clerk']);
      await givenUser(server, 'bob@example.com', ['clerk']);
      const ann = (await login(server.app, 'ann@example.com')).cookie ?? '';
      const bob = (await login(server.app, 'bob@example.com')).cookie ?? '';
      const call = (
        cookie: string,
        method: 'GET' | 'POST' | 'PUT',
        url: string,
        payload?: object,
        language?: string,
      ) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...(language === undefined ? {} : { 'accept-language': language }) },
          ...(payload === undefined ? {} : { payload }),
        });
      expect((await call(ann, 'PUT', '/api/account/locale', { locale: 'fr-FR' })).statusCode).toBe(200);
      for (const [number, paid, dueOn] of [
        [1, true, '2026-03-02'],
        [2, false, '2026-03-03'],
      ] as const) {
        const created = await call(ann, 'POST', '/api/orders', {
          number,
          paid,
          total: '1234.5',
          dueOn,
          channel: 'phone',
        });
        expect(created.statusCode, created.body).toBe(201);
      }

      const csv = async (cookie: string, language?: string) => {
        const response = await call(cookie, 'GET', '/api/orders?format=csv&sort=number', undefined, language);
        expect(response.statusCode, response.body).toBe(200);
        const [header = [], first = []] = table(response.body);
        return { language: response.headers['content-language'], header, first };
      };
      // Ann saved French: French even when her browser asks for English
      const french = await csv(ann, 'en');
      expect(french.language).toBe('fr-FR');
      expect(french.header).toEqual([
        'État',
        'Numéro',
        'Payée',
        'Montant',
        'Échéance',
        'Canal',
        'Créé',
        'Modifié',
      ]);
      expect(french.first.slice(0, 6)).toEqual([
        'En rédaction',
        '1',
        'Oui',
        '1\u202f234,50\u00a0€',
        '2 mars 2026',
        'Par téléphone',
      ]);
      // Bob saved nothing: his browser's language, else the spec's default
      const english = await csv(bob);
      expect(english.language).toBe('en-GB');
      expect(english.header).toEqual([
        'State',
        'Number',
        'Paid',
        'Total',
        'Due on',
        'Channel',
        'Created',
        'Updated',
      ]);
      expect(english.first.slice(0, 6)).toEqual([
        'Being written',
        '1',
        'Yes',
        '€1,234.50',
        '2 Mar 2026',
        'By phone',
      ]);
      expect((await csv(bob, 'fr-CH, fr;q=0.9')).first[0]).toBe('En rédaction');

      const figures = async (cookie: string, language?: string) => {
        const response = await call(cookie, 'GET', '/api/dashboards/figures', undefined, language);
        expect(response.statusCode, response.body).toBe(200);
        return response
          .json<{ widgets: { groups: { label: string }[] | null }[] }>()
          .widgets.map((widget) => widget.groups?.map((group) => group.label));
      };
      expect(await figures(ann)).toEqual([
        ['En rédaction'],
        ['Non', 'Oui'],
        ['mars 2026'],
        ['Semaine du 2 mars 2026'],
        ['Par téléphone'],
      ]);
      expect(await figures(bob)).toEqual([
        ['Being written'],
        ['No', 'Yes'],
        ['March 2026'],
        ['Week of 2 Mar 2026'],
        ['By phone'],
      ]);
      expect((await figures(bob, 'fr'))[0]).toEqual(['En rédaction']);
      await server.app.close();
    }, 120_000);
  });
}
