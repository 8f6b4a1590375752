/**
 * What the tests of one-time links share (decision 0037): a small product whose `auth` the test
 * sets by hand, a real SMTP server the test starts (smtp-server + mailparser) that keeps what it
 * receives, the product's job runner delivering mail on the test's clock, and requests through
 * `app.inject()` checked against the OpenAPI document.
 */
import { type Auth, DEFAULT_AUTH, type Model } from '@ninefold/model';
import {
  CSRF,
  type TestDialect,
  type TestServer,
  checkedInject,
  givenUser,
  login,
  runProductJobs,
  specModel,
  testServer,
} from '@ninefold/testkit';
import { type LightMyRequestResponse } from 'fastify';
import { type ParsedMail, simpleParser } from 'mailparser';
import { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach } from 'vitest';

export const PEOPLE = `
product: { name: Pine Desk }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Note: true
    User:
      read: true
      create: true
      update: true
      fields: { write: [name, email, roles, disabled] }
  staff:
    Note: true
    User: { read: true }
  customer:
    Note: { read: true }
  lead:
    User:
      read: true
      create: "'customer' in roles"
      fields: { write: [name, email, roles] }
`;

/** The people product with these `auth` settings. */
export function peopleModel(auth: Partial<Auth> = {}): Model {
  return { ...specModel(PEOPLE), auth: { ...DEFAULT_AUTH, ...auth } };
}

/** The public address the mailed links start with. */
export const PUBLIC_URL = 'https://desk.example.com';

/** An SMTP server on 127.0.0.1 that keeps what it receives; closed after each test. */
export async function smtpServer() {
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
    server.listen(0, '127.0.0.1', () => resolve());
  });
  servers.push(server);
  return { received, port: (server.server.address() as AddressInfo).port };
}

const servers: SMTPServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The address a parsed mail was sent to. */
export function recipient(mail: ParsedMail): string {
  return mail.to !== undefined && !Array.isArray(mail.to) ? mail.to.text : '';
}

/** The one-time link's secret in a mail's text (`…/link#token=<secret>`), or throws. */
export function tokenIn(text: string): string {
  const match = /\/link#token=([A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`No link in: ${text}`);
  return match[1];
}

export interface IdentityWorld {
  readonly server: TestServer;
  readonly model: Model;
  /** The mail the SMTP server received (empty without SMTP). */
  readonly received: ParsedMail[];
  readonly env: Record<string, string>;
  /** Runs the product's due jobs (mail among them) with the server's environment. */
  runJobs(): Promise<number>;
  /** A request from the app (with the CSRF header), as `cookie` if given, from `address` if given. */
  call(
    method: string,
    url: string,
    options?: { payload?: unknown; cookie?: string | undefined; address?: string },
  ): Promise<LightMyRequestResponse>;
  /** Adds a user with a password, signed in: their cookie. */
  signedIn(email: string, roles: readonly string[]): Promise<string>;
  /** The mails received for an address, oldest first. */
  mailsTo(address: string): ParsedMail[];
}

/**
 * A server of the people product, with a real SMTP server unless `smtp: false` (then mail is kept
 * in the development outbox and links start with the request's own origin).
 *
 * @example const w = await identityWorld(dialect, peopleModel({ signUp: 'customer' }));
 */
export async function identityWorld(
  dialect: TestDialect,
  model: Model,
  options: { smtp?: boolean } = {},
): Promise<IdentityWorld> {
  let received: ParsedMail[] = [];
  const env: Record<string, string> = {};
  if (options.smtp !== false) {
    const smtp = await smtpServer();
    received = smtp.received;
    Object.assign(env, {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'desk@example.com',
      NINEFOLD_PUBLIC_URL: PUBLIC_URL,
    });
  }
  const server = await testServer(dialect, model, { env });
  return {
    server,
    model,
    received,
    env,
    runJobs: () => runProductJobs(server, env),
    call: (method, url, callOptions = {}) =>
      checkedInject(server.app, model, {
        method,
        url,
        headers: { ...CSRF, ...(callOptions.cookie === undefined ? {} : { cookie: callOptions.cookie }) },
        ...(callOptions.payload === undefined ? {} : { payload: callOptions.payload as object }),
        ...(callOptions.address === undefined ? {} : { remoteAddress: callOptions.address }),
      }),
    async signedIn(email, roles) {
      await givenUser(server, email, roles);
      return (await login(server.app, email)).cookie ?? '';
    },
    mailsTo: (address) => received.filter((mail) => recipient(mail) === address),
  };
}
