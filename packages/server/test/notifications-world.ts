/**
 * What the notification tests share: a help desk whose tickets have a requester, watchers, an
 * outside contact address and a field customers may not read; its notifications attached by hand
 * (the contract's `Notification`, until the spec language reads `notifications:`); people of every
 * kind, signed in; and a runner of the product's jobs on the server's clock.
 */
import { type Model, type Notification, type RecordEvent } from '@ninefold/model';
import {
  CSRF,
  checkedInject,
  fanningOutFirst,
  givenUser,
  login,
  specModel,
  testServer,
  type TestDialect,
  type TestServer,
} from '@ninefold/testkit';
import { expect } from 'vitest';
import { TABLES, productJobHandlers } from '../src/index.js';

export const HELP_DESK = specModel(`
product: { name: Help Desk }
entities:
  Ticket:
    fields:
      subject: { type: string, required: true }
      secret: { type: string }
      requester: { type: ref, to: User }
      watchers: { type: ref, to: User, many: true }
      contact: { type: email }
roles:
  agent:
    Ticket: { read: true, create: true, update: true }
    User: { read: true }
  customer:
    Ticket:
      read: "requester == user.id"
      fields: { read: [subject, requester, watchers, contact] }
    User: { read: true, fields: { read: [name] } }
  outsider:
    User: { read: true }
  admin:
    Ticket: { read: true }
    User:
      read: true
      update: true
      fields: { write: [name, email, roles, disabled] }
states:
  Ticket:
    initial: open
    transitions:
      answer: { from: [open, answered], to: answered, roles: [agent] }
      autoClose: { from: answered, to: closed, after: 7d }
`);

/** `Entity.transition` as the contract's event. */
export function onTransition(entity: string, transition: string): RecordEvent {
  return { entity, kind: 'transition', transition, name: `${entity}.${transition}` };
}

/** A notification of the help desk: told when a ticket is answered, unless `extra` says otherwise. */
export function notification(name: string, extra: Partial<Notification> = {}): Notification {
  return {
    name,
    on: [onTransition('Ticket', 'answer')],
    to: [
      { kind: 'user', field: 'requester' },
      { kind: 'user', field: 'watchers' },
      { kind: 'role', role: 'agent' },
    ],
    channels: ['app'],
    subject: 'Your ticket “{subject}” was answered',
    message: '{user.name} answered: {subject} {secret}',
    mandatory: false,
    ...extra,
  };
}

/** The help desk with these notifications. */
export function helpDesk(...notifications: Notification[]): Model {
  return { ...HELP_DESK, notifications: Object.fromEntries(notifications.map((n) => [n.name, n])) };
}

type Json = Record<string, unknown>;

export interface Person {
  readonly id: string;
  readonly email: string;
  /** Sends a request as this person, checked against the OpenAPI document. */
  send(method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<Json>;
  /** The raw answer of a request as this person. */
  call(
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): ReturnType<typeof checkedInject>;
  /** Signs in afresh: a session idle as long as the test moved the clock has expired. */
  signInAgain(): Promise<void>;
}

/**
 * A server of the model, its people signed in — agents Ann and Bob, customers Cid and Dee, Eve who
 * may not read tickets, Ada the admin — and a runner of its jobs.
 */
export async function helpDeskWorld(
  dialect: TestDialect,
  model: Model,
  env: Readonly<Record<string, string | undefined>> = {},
) {
  const server = await testServer(dialect, model);
  const person = async (name: string, role: string): Promise<Person> => {
    const email = `${name}@example.com`;
    const user = await givenUser(server, email, [role]);
    let { cookie } = await login(server.app, email);
    const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      checkedInject(server.app, model, {
        method: method as 'GET',
        url,
        headers: { ...CSRF, cookie: cookie!, ...headers },
        ...(payload === undefined ? {} : { payload: payload as Json }),
      });
    const send = async (method: string, url: string, payload?: unknown, headers?: Record<string, string>) => {
      const response = await call(method, url, payload, headers);
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.statusCode === 204 ? {} : response.json<Json>();
    };
    const signInAgain = async () => {
      ({ cookie } = await login(server.app, email));
    };
    return { id: user.id, email, send, call, signInAgain };
  };
  const people = {
    ann: await person('ann', 'agent'),
    bob: await person('bob', 'agent'),
    cid: await person('cid', 'customer'),
    dee: await person('dee', 'customer'),
    eve: await person('eve', 'outsider'),
    ada: await person('ada', 'admin'),
  };
  const handlers = productJobHandlers({
    model,
    database: server.database,
    files: server.files,
    now: server.clock.now,
    env,
  });
  // each round fans the changes out first, so a round counts notifications and deliveries
  const runner = fanningOutFirst(server, handlers);
  return {
    server,
    people,
    handlers,
    runner,
    /** Runs due jobs until none is left: a delivery's mail jobs too. */
    async runAll(): Promise<number> {
      let total = 0;
      for (let ran = await runner.runDue(); ran > 0; ran = await runner.runDue()) total += ran;
      return total;
    },
    /** Ann opens a ticket and answers it; the changes are fanned out (their notify jobs written). */
    async answeredTicket(fields: Json): Promise<Json> {
      const ticket = await people.ann.send('POST', '/api/tickets', fields);
      const answered = await people.ann.send(
        'POST',
        `/api/tickets/${String(ticket['id'])}/transitions/answer`,
        {},
        {
          'if-match': `"${String(ticket['version'])}"`,
        },
      );
      // the changes' fan-outs write their notifications' jobs
      await runner.fanOut();
      return answered;
    },
  };
}

/** The jobs of a kind, by state. */
export async function jobsOf(server: TestServer, kind: string, state?: string) {
  let select = server.database.db.selectFrom(TABLES.jobs).selectAll().where('kind', '=', kind);
  if (state !== undefined) select = select.where('state', '=', state);
  return select.execute();
}

/** A person's notifications as the API lists them. */
export async function inbox(person: Person, query = '') {
  return (await person.send('GET', `/api/notifications${query}`)) as {
    items: Json[];
    unread: number;
    next: string | null;
  };
}
