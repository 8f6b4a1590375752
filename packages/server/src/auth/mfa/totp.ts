/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app reads them: SHA-1, six
 * digits, a new code every 30 seconds. The secret is 160 random bits (RFC 4226's recommended
 * length); a code is accepted in its own step and the steps either side (a phone's clock drifts),
 * and the caller keeps the step it matched so that no code is accepted twice (decision 0041).
 */
import { Secret, TOTP } from 'otpauth';
import { randomBytes } from 'node:crypto';
import { renderSVG } from 'uqr';

/** Seconds per code: what authenticator apps assume when the URI does not say. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that are accepted: a code typed in its last seconds, a clock a little off. */
const WINDOW = 1;
/** RFC 4226 §4 asks for at least 128 bits and recommends 160. */
const SECRET_BYTES = 20;

/** An authenticator app's secret, as the enrolment shows it. */
export interface TotpEnrolment {
  readonly secret: string;
  readonly uri: string;
  readonly qrSvg: string;
}

/**
 * A new random secret, base32 (what the table keeps and a person types).
 *
 * @example newTotpSecret() // 'JBSWY3DPEHPK3PXP…' (32 characters)
 */
export function newTotpSecret(): string {
  return new Secret({ buffer: randomBytes(SECRET_BYTES).buffer }).base32;
}

/**
 * What an authenticator app needs to add an account: the secret, its `otpauth://` URI (the issuer
 * is the product, the label the user's email) and that URI as a QR code.
 *
 * @example totpEnrolment('JBSW…', 'Claims', 'ann@example.com').uri // 'otpauth://totp/Claims:ann%40example.com?…'
 */
export function totpEnrolment(secret: string, issuer: string, label: string): TotpEnrolment {
  const uri = totpOf(secret, issuer, label).toString();
  return { secret, uri, qrSvg: renderSVG(uri, { ecc: 'M', border: 2 }) };
}

/**
 * The step a code is right for at `now` (its own or one either side), or null when it is not a
 * code of this secret now. Steps only grow: a caller accepts a step only past the last it accepted.
 *
 * @example totpStep('JBSW…', '492039', new Date()) // 59_123_456 or null
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = now.getTime();
  const delta = totpOf(secret, '', '').validate({ token, timestamp, window: WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta;
}

function totpOf(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}
