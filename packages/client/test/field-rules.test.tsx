/**
 * The browser counts and checks as the server does (decision 0026): a text's length in characters
 * (code points, so an emoji is one, though it is two UTF-16 units to an input's `maxlength`), and
 * blank text as no value. The form's check and the server answer the same message.
 */
import { MantineProvider } from '@mantine/core';
import { type Field, type Value } from '@ninefold/model';
import { CSRF, type TestServer, givenUser, login, problem, specModel, testServer } from '@ninefold/testkit';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FieldInput } from '../src/fields/FieldInput';
import { checkForm } from '../src/screens/form/form-model';

const SPEC = `
product: { name: Desk }
entities:
  Ticket:
    fields:
      title: { type: string, required: true, maxLength: 10 }
      note: { type: text, maxLength: 10 }
roles:
  agent: { Ticket: true }
`;
const model = specModel(SPEC);
const ticket = model.entities['Ticket']!;
const NOW = new Date('2026-03-01T09:00:00.000Z');
const agent = { id: 'u-agent', email: 'agent@example.com', name: 'Agent', roles: ['agent'] };

/** The form's verdict on a new ticket's values: the message beside each field. */
function formSays(values: Record<string, Value>) {
  return checkForm(model, ticket, values, {
    operation: 'create',
    user: agent,
    now: NOW,
    old: null,
    shown: new Set(['title', 'note']),
    readable: null,
  });
}

/** What the server says to a new ticket: its status and the message of each field. */
async function serverSays(values: Record<string, Value>, { app }: TestServer) {
  const cookie = (await login(app, 'agent@example.com')).cookie ?? '';
  const response = await app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers: { ...CSRF, cookie },
    payload: values,
  });
  if (response.statusCode === 201) return { status: 201, fields: {} };
  const said = problem(response);
  return {
    status: said.status,
    fields: Object.fromEntries((said.errors ?? []).map((e) => [e.field, e.message])),
  };
}

/** The input of a field, holding its value as a form does, telling each value it gives back. */
function Input({ field, given }: { field: Field; given(value: Value): void }) {
  const [value, setValue] = useState<Value>(null);
  return (
    <FieldInput
      field={field}
      value={value}
      onChange={(next) => {
        setValue(next);
        given(next);
      }}
    />
  );
}

describe('a text field in the browser', () => {
  it.each(['title', 'note'])(
    'takes ten emoji into %s with a maxLength of 10, and an eleventh for the check to refuse',
    async (name) => {
      const given = vi.fn();
      const user = userEvent.setup();
      render(
        <MantineProvider>
          <Input field={ticket.fields[name]!} given={given} />
        </MantineProvider>,
      );
      const input = screen.getByRole('textbox', { name: new RegExp(`^${ticket.fields[name]!.label}`) });
      // no native limit: it would count UTF-16 units and stop at five emoji
      expect(input).not.toHaveAttribute('maxlength');
      await user.click(input);
      await user.paste('😀'.repeat(10));
      expect(given).toHaveBeenLastCalledWith('😀'.repeat(10));
      await user.type(input, '😀');
      expect(given).toHaveBeenLastCalledWith('😀'.repeat(11));
    },
  );

  it('accepts ten emoji and refuses eleven, with the message the server gives', async () => {
    const server = await testServer('sqlite', model);
    await givenUser(server, 'agent@example.com', ['agent']);

    const ten = { title: '😀'.repeat(10), note: '👍🏽'.repeat(5) }; // a toned thumb is two code points
    expect(formSays(ten)).toEqual({ ok: true, fields: {}, form: [] });
    expect(await serverSays(ten, server)).toEqual({ status: 201, fields: {} });

    const eleven = { title: '😀'.repeat(11), note: '👍🏽'.repeat(5) + '😀' };
    const expected = {
      title: 'Title must be at most 10 characters long.',
      note: 'Note must be at most 10 characters long.',
    };
    expect(formSays(eleven)).toEqual({ ok: false, fields: expected, form: [] });
    expect(await serverSays(eleven, server)).toEqual({ status: 422, fields: expected });
  });

  it.each(['   ', '\u200b', '\u00a0\u200d\ufeff', '\t\u2060'])(
    'calls %j no value: required, as the server says',
    async (blank) => {
      const server = await testServer('sqlite', model);
      await givenUser(server, 'agent@example.com', ['agent']);
      const expected = { title: 'Title is required.' };
      expect(formSays({ title: blank, note: blank })).toEqual({ ok: false, fields: expected, form: [] });
      expect(await serverSays({ title: blank, note: blank }, server)).toEqual({
        status: 422,
        fields: expected,
      });
    },
  );
});
