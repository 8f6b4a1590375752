/**
 * What a sign-in needs after its password (decision 0041): nothing more, the second step's code,
 * or — when the spec's `auth.mfa` requires the factor of a user who has none — an enrolment first.
 * One function decides for every way in that sets or checks a password (sign-in, an accepted
 * invitation, a checked sign-up, a completed reset), so none can skip the policy. Single sign-on
 * (the provider owns its factors) and API tokens (a secret of their own) never come here.
 */
import { type MfaChallengeAnswer, type Model, type SessionMethod, mfaRequiredOf } from '@ninefold/model';
import { type Database } from '../../db/open.js';
import { startSecondStep } from './challenges.js';
import { readFactor } from './factor.js';

/** After a right password: sign in now, ask for a code, or have the user turn the factor on first. */
export type SignInStep = 'none' | 'code' | 'enrol';

type Context = { readonly model: Model; readonly database: Database; readonly now: () => Date };

/**
 * The step a user's sign-in needs: `code` when their factor is on, `enrol` when the spec requires
 * it of their roles and it is not on, `none` otherwise.
 *
 * @example await signInStep(context, { id: 'u1', roles: ['admin'] }) // 'enrol' under `mfa: { required: [admin] }`
 */
export async function signInStep(
  context: Pick<Context, 'model' | 'database'>,
  user: { readonly id: string; readonly roles: readonly string[] },
): Promise<SignInStep> {
  if ((await readFactor(context.database.db, user.id))?.enabled === true) return 'code';
  return mfaRequiredOf(context.model.auth.mfa, user.roles) ? 'enrol' : 'none';
}

/**
 * The 202 answer that stands in for a session when the user's sign-in needs a further step (a
 * challenge, marked `enrol` when the factor must be turned on first), or null: sign in now.
 *
 * @example
 * const challenge = await secondStepChallenge(context, user, 'invitation');
 * if (challenge !== null) return reply.code(202).send(challenge);
 */
export async function secondStepChallenge(
  context: Context,
  user: { readonly id: string; readonly roles: readonly string[] },
  method: SessionMethod,
): Promise<MfaChallengeAnswer | null> {
  const step = await signInStep(context, user);
  if (step === 'none') return null;
  const answer = await startSecondStep(context, user.id, method);
  return step === 'enrol' ? { mfa: { ...answer.mfa, enrol: true } } : answer;
}

/**
 * Why the policy requires the factor of these roles, for E_MFA_REQUIRED; null when it does not.
 *
 * @example requiredBecause(model, ['admin']) // 'your role admin needs it', under `mfa: { required: [admin] }`
 */
export function requiredBecause(model: Model, roles: readonly string[]): string | null {
  const policy = model.auth.mfa;
  if (!mfaRequiredOf(policy, roles)) return null;
  if (typeof policy === 'string') return 'every account here needs it';
  const held = roles.filter((role) => policy.required.includes(role));
  return `your role ${held.join(', ')} needs it`;
}
