/**
 * The wire protocol of identity (decision 0035): what the API answers about invitations, one-time
 * links, sessions, API tokens, the audit trail and the second factor, and the limits both sides
 * spell. Part of the protocol (`protocol.ts` holds the rest, and the paths); types and constants only.
 */
import { type SessionAnswer } from './protocol.js';

// ---------------------------------------------------------------------------------------------
// Identity (decision 0035)

/** The shortest password accepted (ASVS 5.0 6.2.1). */
export const PASSWORD_MIN_LENGTH = 8;
/** The length a strength meter asks for (ASVS 5.0 6.2.1 recommends 15). */
export const PASSWORD_RECOMMENDED_LENGTH = 15;
/** The longest password accepted (ASVS 5.0 6.2.9 asks for at least 64). */
export const PASSWORD_MAX_LENGTH = 128;

/** How long one-time links and tokens live, unless said otherwise. */
export const IDENTITY_LIFETIMES = {
  invitationDays: 7,
  passwordResetMinutes: 30,
  signUpHours: 24,
  tokenDefaultDays: 90,
  tokenMaxDays: 366,
} as const;

/** Every API token starts so: a secret scanner can find one in a leaked file. */
export const TOKEN_PREFIX = 'nf_';

/** What a one-time link is for. */
export type LinkPurpose = 'invitation' | 'sign-up' | 'password-reset';

/** `POST <basePath>/links/inspect`'s answer: what a working link is for, and for whom. */
export interface WireLink {
  readonly purpose: LinkPurpose;
  readonly email: string;
  readonly expiresAt: string;
}

/** Where an invitation is: waiting, accepted, revoked (or replaced by a newer one), or past its time. */
export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

/** An invitation as `GET <basePath>/invitations` lists it. */
export interface WireInvitation {
  readonly id: string;
  /** The invited user's id. */
  readonly user: string;
  readonly email: string;
  readonly name: string;
  readonly state: InvitationState;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** Who invited (a user's id), or null for the command line. */
  readonly createdBy: string | null;
  readonly acceptedAt: string | null;
}

/**
 * `POST <basePath>/invitations`' answer: the invitation, and either that it was mailed or, when
 * the server sends no mail, its link, shown this once.
 */
export interface InvitationAnswer extends WireInvitation {
  readonly mailed: boolean;
  readonly link: string | null;
}

/** How a session was begun. */
export type SessionMethod = 'password' | 'invitation' | 'sign-up' | 'password-reset' | 'sso';

/** One of the signed-in user's sessions, as `GET <basePath>/account/sessions` lists them. */
export interface WireSession {
  readonly id: string;
  readonly createdAt: string;
  readonly lastSeenAt: string;
  /** True for the session of the request. */
  readonly current: boolean;
  readonly userAgent: string | null;
  readonly address: string | null;
  readonly method: SessionMethod | null;
}

/** A personal API token as `GET <basePath>/tokens` lists it: never the token itself. */
export interface WireToken {
  readonly id: string;
  readonly name: string;
  /** The roles it acts with: some of its user's, among `auth.tokens`. */
  readonly roles: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly lastUsedAt: string | null;
}

/** `POST <basePath>/tokens`' answer: the token, this once. */
export interface NewTokenAnswer extends WireToken {
  /** `nf_…`: sent as `Authorization: Bearer <token>`. */
  readonly token: string;
}

/** What the identity audit trail records. */
export const AUTH_EVENT_KINDS = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'session-ended',
  'invitation-created',
  'invitation-revoked',
  'invitation-accepted',
  'sign-up-requested',
  'sign-up-verified',
  'password-reset-requested',
  'password-reset-completed',
  'password-changed',
  'token-created',
  'token-revoked',
  'sso-sign-in',
  'sso-linked',
  'sso-failed',
  'mfa-enabled',
  'mfa-disabled',
  'mfa-failed',
  'recovery-codes-replaced',
  'sessions-ended-by-admin',
  'email-changed',
] as const;
export type AuthEventKind = (typeof AUTH_EVENT_KINDS)[number];

/** One entry of the identity audit trail (`GET <basePath>/admin/auth-events`). */
export interface WireAuthEvent {
  readonly id: string;
  readonly at: string;
  readonly kind: AuthEventKind;
  /** The user it is about, when known. */
  readonly userId: string | null;
  /** The address it is about (a failed sign-in's, a sign-up's), when known. */
  readonly email: string | null;
  /** Who did it, when not the user themselves (an admin's id). */
  readonly actorId: string | null;
  /** The client's address. */
  readonly address: string | null;
  readonly userAgent: string | null;
  /** What else is worth knowing (a token's name, why SSO failed); never a secret. */
  readonly detail: Readonly<Record<string, string>> | null;
}

// ---------------------------------------------------------------------------------------------
// The second factor (decision 0041)

/** How many recovery codes a user holds after turning the second factor on, or replacing them. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a sign-in waits for its second step, and how many wrong codes it takes. */
export const MFA_CHALLENGE = { minutes: 5, attempts: 5 } as const;

/** `GET <basePath>/account/mfa`: whether the second factor is on, and how many recovery codes are unused. */
export interface MfaStatus {
  readonly enabled: boolean;
  readonly recoveryCodesLeft: number;
  /** False for a user with no password (single sign-on only): their provider gives their second step. */
  readonly available: boolean;
  /** The spec's `auth.mfa` requires it of this user: it cannot be turned off. */
  readonly required: boolean;
}

/** `POST <basePath>/account/mfa`'s answer: the authenticator app's secret, as text, URI and QR code. */
export interface MfaEnrolment {
  /** Base32, for typing into an authenticator app by hand. */
  readonly secret: string;
  /** `otpauth://totp/…`: what the QR code holds. */
  readonly uri: string;
  /** The URI as a QR code, an SVG document. */
  readonly qrSvg: string;
}

/** The recovery codes, shown this once: `POST <basePath>/account/mfa/confirm` and `…/recovery-codes`. */
export interface RecoveryCodesAnswer {
  readonly recoveryCodes: readonly string[];
}

/**
 * `POST <basePath>/session` (202) for a user with the second factor on: no session yet; the
 * challenge goes with a code to `POST <basePath>/session/mfa`.
 */
export interface MfaChallengeAnswer {
  /**
   * `enrol: true` when the spec requires the factor of this user and they have none yet: they get
   * a secret at `POST <basePath>/session/mfa/enrol` and confirm it with their first code.
   */
  readonly mfa: { readonly challenge: string; readonly enrol?: true };
}

/**
 * `POST <basePath>/session/mfa`'s answer after an enrolment the spec required: the session, and the
 * recovery codes of the factor just turned on, this once.
 */
export interface EnrolledSessionAnswer extends SessionAnswer {
  readonly recoveryCodes?: readonly string[];
}

/** `DELETE <basePath>/admin/sessions`' answer: how many sessions ended. */
export interface SessionsEndedAnswer {
  readonly ended: number;
}
