/**
 * Identity's routes of one-time links (decision 0037): what a link is for
 * (`POST <basePath>/links/inspect`), invitations (`GET`, `POST`, `DELETE <id>`, `POST accept`),
 * sign-up (`sign-ups.ts`) and password reset (`password-resets.ts`). The mail settings are read
 * once, here, from the server's environment.
 */
import {
  API_PATHS,
  type InvitationAnswer,
  type Model,
  type WireInvitation,
  type WireLink,
} from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { listFilter } from '../http/admin-lists.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { mailSettings } from '../mail/settings.js';
import { type Env } from '../webhooks/resolve.js';
import { readTexts } from './identity-input.js';
import {
  inviteUser,
  inviteeAgain,
  listInvitations,
  requireInviter,
  revokeInvitation,
} from './invitations.js';
import { linkPasswordContext, setPasswordByLink } from './link-accounts.js';
import { inspectLink, publicBase, useLink, wireLink } from './links.js';
import { hashPassword } from './password.js';
import { checkNewPassword } from './password-policy.js';
import { registerPasswordResetRoutes } from './password-resets.js';
import { sessionCacheOf } from './session-cache.js';
import { secondStepChallenge } from './mfa/policy.js';
import { startSession } from './session-routes.js';
import { registerSignUpRoutes } from './sign-ups.js';
import { type CounterStore } from '../limits/counters.js';

const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;

/**
 * Registers the routes of invitations, sign-up, password reset and link inspection.
 *
 * @example registerIdentityRoutes(api, { model, database, now, env: process.env });
 */
export function registerIdentityRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database; now: () => Date; env: Env; counters: CounterStore },
): void {
  const { model, database, now } = context;
  const settings = mailSettings(context.env);
  const flows = { model, database, now, settings, counters: context.counters };
  const invitations = apiPath(model, API_PATHS.invitations);

  api.post(apiPath(model, API_PATHS.links), async (request): Promise<WireLink> => {
    const { token } = readTexts(request.body, { token: 'Token' }, 'a link');
    return wireLink(await inspectLink(database.db, token, now()));
  });

  api.get(invitations, async (request): Promise<{ data: WireInvitation[] }> => {
    const inviter = requireInviter(context, request);
    const state = listFilter(request.query, 'state', INVITATION_STATES);
    const all = await listInvitations(database, model, now(), state);
    // a role whose create permission is a condition sees the invitations of those it may invite
    const mine = await Promise.all(all.map((invitation) => inviter.mayInvite(invitation.user)));
    return { data: all.filter((_invitation, i) => mine[i] === true) };
  });

  api.post(invitations, async (request, reply) => {
    const inviter = requireInviter(context, request);
    const { user } = readTexts(request.body, { user: 'User' }, 'an invitation');
    if (!(await inviter.mayInvite(user))) throw new ApiError('E_FORBIDDEN');
    const invitee = await inviteeAgain(database, model, user);
    const base = publicBase(settings, request);
    const at = now();
    const answer: InvitationAnswer = await database.db
      .transaction()
      .execute((tx) =>
        inviteUser(
          tx,
          invitee,
          { settings, base },
          { actorId: inviter.id, now: at, origin: requestOrigin(request) },
        ),
      );
    return reply.code(201).send(answer);
  });

  api.delete<{ Params: { id: string } }>(`${invitations}/:id`, async (request, reply) => {
    const inviter = requireInviter(context, request);
    await revokeInvitation(database, request.params.id, {
      inviter,
      now: now(),
      origin: requestOrigin(request),
    });
    return reply.code(204).send();
  });

  api.post(`${invitations}/accept`, async (request, reply) => {
    const body = readTexts(request.body, { token: 'Token', password: 'Password' }, 'an invitation');
    // the link is checked before the password: a dead link says so, whatever the password
    const link = await inspectLink(database.db, body.token, now(), 'invitation');
    const words = await linkPasswordContext(database.db, model, link);
    const issues = checkNewPassword(body.password, 'password', words);
    if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
    const passwordHash = await hashPassword(body.password);
    const at = now();
    const user = await database.db.transaction().execute(async (tx) => {
      const link = await useLink(tx, body.token, 'invitation', at);
      const accepted = await setPasswordByLink(tx, model, link.userId, passwordHash, at, {
        endSessions: false,
      });
      await recordAuthEvent(tx, {
        kind: 'invitation-accepted',
        at,
        userId: accepted.id,
        email: accepted.email,
        ...requestOrigin(request),
      });
      return accepted;
    });
    sessionCacheOf(database).forgetUser(user.id);
    // a role the spec requires the second factor of turns it on before the first session
    const challenge = await secondStepChallenge(context, user, 'invitation');
    if (challenge !== null) return reply.code(202).send(challenge);
    return reply.send(await startSession(context, request, reply, user, 'invitation'));
  });

  registerSignUpRoutes(api, flows);
  registerPasswordResetRoutes(api, flows);
}
