/**
 * A Dockerfile read as its stages and their instructions, for the deploy tests to hold our own rules
 * against (decision 0061): the linter (`dockerfile-utils`) checks the syntax and each instruction's
 * form, but not what we ask of the image — several stages, pinned bases, a non-root user, a health
 * check, no secret in the environment. Only what those rules need: continuation lines joined,
 * comments dropped, `FROM … AS name` opening a stage.
 */

/** One instruction: its keyword in upper case and the rest of its (joined) lines. */
export interface Instruction {
  readonly keyword: string;
  readonly args: string;
  /** 1-based, of its first line. */
  readonly line: number;
}

/** A stage: its `FROM` image, its name (if any), and what follows until the next `FROM`. */
export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

/**
 * The instructions of a Dockerfile, in order.
 *
 * @example instructionsOf('FROM node:22\nRUN a \\\n  && b') // [{ keyword: 'FROM', … }, { keyword: 'RUN', args: 'a && b', … }]
 */
export function instructionsOf(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    const trimmed = line.trim();
    // a comment line is dropped, inside a continuation too (as Docker does)
    if (trimmed.startsWith('#') || (trimmed === '' && pending === undefined)) return;
    const continues = line.endsWith('\\');
    const part = (continues ? line.slice(0, -1) : line).trim();
    if (pending === undefined) pending = { parts: [], line: index + 1 };
    pending.parts.push(part);
    if (continues) return;
    const joined = pending.parts.filter((p) => p !== '').join(' ');
    const [keyword = '', ...rest] = joined.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: pending.line });
    pending = undefined;
  });
  return instructions;
}

/**
 * The stages of a Dockerfile; instructions before the first `FROM` (`ARG`) belong to none.
 *
 * @example stagesOf('FROM node:22 AS build\nRUN make\nFROM node:22\nCOPY --from=build /out /')[1].name // undefined
 */
export function stagesOf(text: string): Stage[] {
  const stages: { image: string; name: string | undefined; instructions: Instruction[] }[] = [];
  for (const instruction of instructionsOf(text)) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const as = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({
        image: words[0] ?? '',
        name: as === -1 ? undefined : words[as + 1],
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/**
 * Whether an image reference is pinned: a digest, or a tag that names a version (a digit in it),
 * never a moving name alone (`node`, `node:latest`, `node:lts-slim`).
 *
 * @example isPinned('node:22.21.1-bookworm-slim') // true
 * @example isPinned('node:lts-slim') // false
 */
export function isPinned(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const slash = image.lastIndexOf('/');
  const colon = image.indexOf(':', slash + 1);
  if (colon === -1) return false;
  const tag = image.slice(colon + 1);
  return tag !== 'latest' && /\d+\.\d+/.test(tag);
}

/** Names of environment variables and build arguments that hold secrets. */
const SECRET_NAME =
  /PASSWORD|PASSWD|SECRET|TOKEN|PRIVATE|(^|_)KEY($|_)|CREDENTIAL|DATABASE_URL|REDIS_URL|SMTP_URL/i;

/**
 * The `ENV` and `ARG` names of a stage that look like secrets, or whose value carries a password in
 * a URL (`postgres://user:pass@host`): an image's environment is readable by anyone who pulls it.
 *
 * @example secretsIn(stagesOf('FROM node:22.1.0\nENV DATABASE_URL=postgres://a:b@db/x')[0]) // ['DATABASE_URL']
 */
export function secretsIn(stage: Stage): string[] {
  const found: string[] = [];
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV' && keyword !== 'ARG') continue;
    // `ENV A=1 B=2`, `ENV A 1` (legacy form), `ARG A`, `ARG A=1`
    const pairs = args.includes('=')
      ? args.split(/\s+(?=[A-Za-z_][A-Za-z0-9_]*=)/)
      : [args.replace(/\s+/, '=')];
    for (const pair of pairs) {
      const [name = '', ...value] = pair.split('=');
      if (SECRET_NAME.test(name) || /:\/\/[^/\s:@]*:[^@\s]+@/.test(value.join('='))) found.push(name);
    }
  }
  return found;
}
