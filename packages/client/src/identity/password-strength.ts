/**
 * How strong a new password looks, judged in the browser by zxcvbn-ts with its common dictionary
 * (passwords, diceware words, keyboard layouts). The estimator and its ~1 MB of word lists load on
 * their own, only when a page with a new-password field asks, never with the first page. It only
 * advises: the server's policy (length, its list of common passwords) decides.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RECOMMENDED_LENGTH } from '@ninefold/model';
import { type MessageKey } from '../i18n/catalogue';
import { onDemand } from '../runtime/lazy';

/** What the meter says of a password. */
export interface Strength {
  /** 0 (empty) to 100: the bar's length. */
  readonly percent: number;
  /** The bar's colour, which never says anything the text does not. */
  readonly color: 'red' | 'orange' | 'yellow' | 'teal' | 'green';
  /** One plain sentence: what is wrong, or how good it is (its catalogue key, with `STRENGTH_VALUES`). */
  readonly verdict: MessageKey;
  /** Whether the server would refuse it for its length or as a common password (as far as we know). */
  readonly refused: boolean;
}

/** Every sentence the meter says, in one place (issue 15 translates them). */
export const STRENGTH_TEXT = {
  empty: 'identity.strength.empty',
  tooShort: 'identity.strength.tooShort',
  tooLong: 'identity.strength.tooLong',
  common: 'identity.strength.common',
  context: 'identity.strength.context',
  weak: 'identity.strength.weak',
  fair: 'identity.strength.fair',
  good: 'identity.strength.good',
  strong: 'identity.strength.strong',
  checking: 'identity.strength.checking',
} as const satisfies Record<string, MessageKey>;

/** The numbers the verdicts speak of, for `t(verdict, STRENGTH_VALUES)`. */
export const STRENGTH_VALUES = {
  min: PASSWORD_MIN_LENGTH,
  max: PASSWORD_MAX_LENGTH,
  recommended: PASSWORD_RECOMMENDED_LENGTH,
} as const;

type Estimator = (
  password: string,
  userInputs: readonly string[],
) => { score: number; warning: string | null };

const estimator = onDemand<Estimator>(async () => {
  const [{ ZxcvbnFactory }, common] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: common.dictionary,
    graphs: common.adjacencyGraphs,
    maxLength: PASSWORD_MAX_LENGTH,
  });
  return (password, userInputs) => {
    // zxcvbn matches whole inputs: "Ada Lovelace" and "ada.lovelace@example.com" as their words
    const words = userInputs.flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
    const result = zxcvbn.check(
      password,
      words.filter((word) => word.length >= 3),
    );
    return { score: result.score, warning: result.feedback.warning };
  };
});

/**
 * Loads the estimator (once; again after a failure). Pages with a new-password field ask for it
 * when they open.
 *
 * @example useEffect(() => void loadStrengthEstimator().catch(() => undefined), []);
 */
export function loadStrengthEstimator(): Promise<unknown> {
  return estimator.load();
}

/** Context words shorter than this are too common inside other words (the server's rule too). */
const MIN_CONTEXT_WORD = 4;

/**
 * The words a password must not be built on, as the server's policy reads them
 * (`server/src/auth/password-policy.ts`, `contextWords`): each text whole and word by word, an
 * address as its local part and its domain's labels, and "ninefold".
 *
 * @example contextWords(['Ann Lee', 'ann.lee@example.com']) // ['ninefold', 'annlee', 'ann.lee', 'example']
 */
export function contextWords(texts: readonly string[]): string[] {
  const words = new Set<string>(['ninefold']);
  const add = (text: string) => {
    const lower = text.toLowerCase().trim();
    for (const word of [lower.replace(/\s+/g, ''), ...lower.split(/[^\p{L}\p{N}]+/u)])
      if ([...word].length >= MIN_CONTEXT_WORD) words.add(word);
  };
  for (const text of texts) {
    if (!text.includes('@')) {
      add(text);
      continue;
    }
    const [local = '', domain = ''] = text.toLowerCase().split('@');
    add(local);
    for (const label of domain.split('.').slice(0, -1)) add(label);
  }
  return [...words];
}

/** Whether a password is a context word with fewer than the minimum length around it. */
function isContextPassword(password: string, texts: readonly string[]): boolean {
  const lower = password.toLowerCase().replace(/\s+/g, '');
  return contextWords(texts).some(
    (word) => lower.includes(word) && [...lower.replace(word, '')].length < PASSWORD_MIN_LENGTH,
  );
}

/** zxcvbn's warnings that mean "a well-known password" (its keys: no translations are loaded). */
const COMMON_WARNINGS = new Set(['topTen', 'topHundred', 'common', 'similarToCommon', 'pwned']);

/**
 * The meter's reading of a password; null while the estimator loads (the length and context rules
 * still apply without it). `userInputs` are what a good password is not built on: the person's name
 * and address, the product's name.
 *
 * @example passwordStrength('correct horse battery staple', ['Ada'])?.verdict // 'Strong.'
 */
export function passwordStrength(password: string, userInputs: readonly string[] = []): Strength | null {
  const length = [...password].length;
  if (length === 0) return { percent: 0, color: 'red', verdict: STRENGTH_TEXT.empty, refused: false };
  if (length > PASSWORD_MAX_LENGTH)
    return { percent: 100, color: 'red', verdict: STRENGTH_TEXT.tooLong, refused: true };
  const estimate = estimator.current();
  if (length < PASSWORD_MIN_LENGTH)
    return { percent: 10, color: 'red', verdict: STRENGTH_TEXT.tooShort, refused: true };
  if (isContextPassword(password, userInputs))
    return { percent: 15, color: 'red', verdict: STRENGTH_TEXT.context, refused: true };
  if (estimate === null) return null;
  const { score, warning } = estimate(password, userInputs);
  if (warning !== null && COMMON_WARNINGS.has(warning) && score <= 2)
    return { percent: 15, color: 'red', verdict: STRENGTH_TEXT.common, refused: true };
  // zxcvbn's score (0–4), held below "strong" until the recommended length
  const short = length < PASSWORD_RECOMMENDED_LENGTH;
  const level = Math.min(score, short ? 3 : 4);
  if (level <= 1) return { percent: 25, color: 'orange', verdict: STRENGTH_TEXT.weak, refused: false };
  if (level === 2) return { percent: 50, color: 'yellow', verdict: STRENGTH_TEXT.fair, refused: false };
  if (level === 3)
    return {
      percent: 75,
      color: 'teal',
      verdict: short ? STRENGTH_TEXT.fair : STRENGTH_TEXT.good,
      refused: false,
    };
  return { percent: 100, color: 'green', verdict: STRENGTH_TEXT.strong, refused: false };
}
