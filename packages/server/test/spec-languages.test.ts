/**
 * The server answers in the reader's language (decision 0068): a problem's message is rendered from
 * the model of the spec's locale that fits the request's `Accept-Language` best — the spec's own
 * messages from its translation file, the built-in ones from the shipped catalogue — and says which
 * in `Content-Language`. A language the spec does not offer gets the default.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { CSRF, DIALECTS, checkedInject, givenUser, login, problem, testServer } from '@ninefold/testkit';

const SPEC = `
product: { name: Desk, locales: [en-GB, fr-FR] }
entities:
  Ticket:
    fields:
      title: { type: string, required: true }
      note: { type: text }
rules:
  - { id: note-long, entity: Ticket, assert: "!has(note) || size(note) > 3", error: E_NOTE_SHORT, fields: [note] }
roles:
  agent: { Ticket: true }
errors:
  E_NOTE_SHORT: "The note on {title} is too short."
`;

const FRENCH = `
product: { name: Bureau }
entities: { Ticket: { label: Demande, fields: { title: { label: Titre } } } }
errors:
  E_NOTE_SHORT: { message: "La note de {title} est trop courte." }
`;

function model(): Model {
  const result = compile(SPEC, { file: 'desk.yaml', translations: { 'desk.fr-FR.yaml': FRENCH } });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.model;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the reader's language`, () => {
    it('renders problems in the language Accept-Language asks for, among the spec’s locales', async () => {
      const desk = model();
      const server = await testServer(dialect, desk);
      await givenUser(server, 'ada@example.com', ['agent']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const post = (payload: object, language?: string) =>
        checkedInject(server.app, desk, {
          method: 'POST',
          url: '/api/tickets',
          headers: { ...CSRF, cookie, ...(language === undefined ? {} : { 'accept-language': language }) },
          payload,
        });

      const french = await post({ title: ' ' }, 'fr-CH, fr;q=0.9, en;q=0.5');
      expect(french.headers['content-language']).toBe('fr-FR');
      expect(problem(french).errors).toEqual([
        { field: 'title', code: 'E_REQUIRED', message: 'Titre est obligatoire.' },
      ]);
      const rule = problem(await post({ title: 'Jam', note: 'ok' }, 'fr'));
      expect(rule.errors?.[0]?.message ?? rule.message).toBe('La note de Jam est trop courte.');

      const english = await post({ title: 'Jam', note: 'ok' });
      expect(english.headers['content-language']).toBe('en-GB');
      const said = problem(english);
      expect(said.errors?.[0]?.message ?? said.message).toBe('The note on Jam is too short.');
      // a language the spec does not offer: its default
      const german = await post({ title: ' ' }, 'de-DE');
      expect(german.headers['content-language']).toBe('en-GB');
      expect(problem(german).errors?.[0]?.message).toBe('Title is required.');
      await server.app.close();
    }, 120_000);

    it('gives a visitor the translations of the product, never of what is behind the sign-in', async () => {
      const desk = model();
      const server = await testServer(dialect, desk);
      const visitor = await server.app.inject({ method: 'GET', url: '/api/model' });
      expect(visitor.json<Model>().translations).toEqual({ 'fr-FR': { 'product.name': 'Bureau' } });
      await server.app.close();
    }, 120_000);
  });
}
