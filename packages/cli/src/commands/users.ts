import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { type InvitationAnswer } from '@ninefold/model';
import {
  type UserSummary,
  ApiError,
  addUser,
  disableUser,
  inviteByCommand,
  instancesServing,
  listUsers,
  problemOf,
  resetPassword,
  resetSecondFactor,
  setRoles,
} from '@ninefold/server';
import { prepareSchema } from '../deploy-schema.js';
import { EXIT, type Io } from '../io.js';
import { openSpecDatabase } from './migrate.js';

export const USERS_HELP = `Usage: ninefold users <action> --spec <spec> [options]

Actions:
  add --email <email> --name <name> --roles <a,b> [--password <p>]
                                 add a user; without --password, invite them: a one-time link to choose
                                 one (7 days), mailed when SMTP_URL is set, otherwise printed
  invite <email>                 invite a user who has no password again (the earlier link stops working)
  list                           every user, their roles and whether they are disabled
  set-roles <email> <a,b>        replace a user's roles
  disable <email> [--enable]     disable a user and end their sessions (or enable them again)
  reset-password <email> [--password <p>]
                                 set a new password (generated when none is given) and end their sessions
  reset-mfa <email>              take away a user's second factor and recovery codes and end their
                                 sessions, once you have checked who they are: for someone who lost both

Options:
  --spec <spec>    the spec whose roles and User entity apply (required)
  --data <folder>  where the SQLite database lives (default ./data); DATABASE_URL selects PostgreSQL

Invitations are mailed by the server's job runner when SMTP_URL is set (NINEFOLD_PUBLIC_URL, the
app's public address, is then needed); without SMTP_URL the link is printed, this once.
`;

/** `ninefold users …`. */
export async function users(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        spec: { type: 'string' },
        data: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        roles: { type: 'string' },
        password: { type: 'string' },
        enable: { type: 'boolean' },
      },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USERS_HELP}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [action, ...rest] = positionals;
  const usage = (message: string) => {
    io.stderr.write(`${message}\n\n${USERS_HELP}`);
    return EXIT.usage;
  };
  if (values.spec === undefined) return usage('Give the spec with --spec <file>.');
  const arity: Record<string, number> = {
    add: 0,
    invite: 1,
    list: 0,
    'set-roles': 2,
    disable: 1,
    'reset-password': 1,
    'reset-mfa': 1,
  };
  if (action === undefined || arity[action] === undefined)
    return usage(`Unknown action \`${action ?? ''}\`.`);
  if (rest.length !== arity[action])
    return usage(`\`users ${action}\` takes ${String(arity[action])} argument(s).`);
  if (
    action === 'add' &&
    (values.email === undefined || values.name === undefined || values.roles === undefined)
  ) {
    return usage('`users add` needs --email, --name and --roles.');
  }

  const opened = await openSpecDatabase(values.spec, values.data, io);
  if (opened === null) return EXIT.errors;
  const { model, database } = opened;
  const env = io.env ?? {};
  const roleList = (text: string) =>
    text
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
  const show = (u: UserSummary) =>
    `${u.email}  ${u.name}  [${u.roles.join(', ')}]${u.disabled ? '  (disabled)' : ''}\n`;
  try {
    // as a start would: migrates unless other instances serve a database that can serve this spec
    await prepareSchema(database, model, {
      migrate: false,
      acceptDataLoss: false,
      others: database.dialect === 'postgres' ? () => instancesServing(database) : null,
    });
    const email = rest[0] ?? '';
    switch (action) {
      case 'add': {
        const user = await addUser(database, model, {
          email: values.email ?? '',
          name: values.name ?? '',
          roles: roleList(values.roles ?? ''),
          ...(values.password === undefined ? {} : { password: values.password }),
        });
        io.stdout.write(`Added ${show(user)}`);
        if (values.password === undefined)
          io.stdout.write(invitationText(await inviteByCommand(database, model, user.email, env)));
        break;
      }
      case 'invite':
        io.stdout.write(invitationText(await inviteByCommand(database, model, email, env)));
        break;
      case 'list':
        for (const user of await listUsers(database, model)) io.stdout.write(show(user));
        break;
      case 'set-roles':
        io.stdout.write(`Updated ${show(await setRoles(database, model, email, roleList(rest[1] ?? '')))}`);
        break;
      case 'disable': {
        const user = await disableUser(database, model, email, { enabled: values.enable === true });
        io.stdout.write(`${values.enable === true ? 'Enabled' : 'Disabled'} ${show(user)}`);
        break;
      }
      case 'reset-password': {
        const password = values.password ?? randomBytes(12).toString('base64url');
        const user = await resetPassword(database, model, email, password);
        io.stdout.write(
          `New password for ${user.email}${values.password === undefined ? `: ${password}` : ''}\n`,
        );
        break;
      }
      case 'reset-mfa': {
        const user = await resetSecondFactor(database, model, email);
        io.stdout.write(
          `Two-step sign-in is off for ${user.email} and their sessions ended: they sign in with their password and turn it on again.\n`,
        );
        break;
      }
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ApiError) {
      const problem = problemOf(model, error.code, error.params, {
        errors: error.errors,
        detail: error.detail,
      });
      const details = (problem.errors ?? []).map((e) => `  ${e.field ?? ''}: ${e.message}\n`).join('');
      io.stderr.write(
        `${problem.message}\n${problem.detail === undefined ? '' : `${problem.detail}\n`}${details}`,
      );
      return EXIT.errors;
    }
    io.stderr.write(`${(error as Error).message}\n`);
    return EXIT.errors;
  } finally {
    await database.close();
  }
}

/** What the command line says of an invitation: mailed, or its link, this once. */
function invitationText(invitation: InvitationAnswer): string {
  if (invitation.mailed)
    return `Invitation mailed to ${invitation.email} (valid until ${invitation.expiresAt}).\n`;
  const link = invitation.link ?? '';
  const whole = link.startsWith('/')
    ? `${link}\n  (open it at the app's address; set NINEFOLD_PUBLIC_URL to print the whole link)`
    : link;
  return `Invitation link, shown this once (works once, until ${invitation.expiresAt}):\n  ${whole}\n`;
}
