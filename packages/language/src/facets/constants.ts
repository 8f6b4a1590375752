import { suggestion } from '../diagnostics/suggest.js';
import { type Constant, DEFAULT_MAX_UPLOAD_SIZE, type Limits } from '@ninefold/model';
import { describe, type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { readSize } from './field-files.js';
import { checkName, mapOf } from './reader.js';

export const LIMIT_KEYS = [
  'pageSize',
  'maxPageSize',
  'maxBodyBytes',
  'maxUploadSize',
  'requestsPerMinute',
  'loginAttemptsPerMinute',
  'sessionIdleMinutes',
  'sessionAbsoluteHours',
] as const;

export const DEFAULT_LIMITS: Limits = {
  pageSize: 50,
  maxPageSize: 200,
  maxBodyBytes: 1024 * 1024,
  maxUploadSize: DEFAULT_MAX_UPLOAD_SIZE,
  requestsPerMinute: { default: 600, guest: 60 },
  loginAttemptsPerMinute: 10,
  sessionIdleMinutes: 60,
  sessionAbsoluteHours: 24,
};

/** Reads `constants:`: UPPER_SNAKE names to numbers, text or booleans. */
export function readConstants(ctx: CompileContext, entries: readonly YEntry[]): Record<string, Constant> {
  const out: Record<string, Constant> = {};
  for (const entry of entries) {
    if (!checkName(ctx.bag, 'constant', entry)) continue;
    const v = entry.value;
    if (v.kind !== 'scalar' || v.value === null) {
      ctx.reader.wrongType(v, `the constant \`${entry.key}\` must be a number, text or a boolean`);
      continue;
    }
    if (typeof v.value === 'number' && !Number.isFinite(v.value)) {
      ctx.bag.report(
        'NF202',
        v.span,
        `The constant \`${entry.key}\` must be a finite number, found ${describe(v)}.`,
        null,
      );
      continue;
    }
    out[entry.key] = v.value;
  }
  return out;
}

/** Reads `limits:` over the defaults; per-role rates are checked against the declared roles. */
export function readLimits(ctx: CompileContext, entries: readonly YEntry[]): Limits {
  const { reader } = ctx;
  const limits: { -readonly [K in keyof Limits]: Limits[K] } = { ...DEFAULT_LIMITS };
  const bounded = {
    pageSize: [1, 1000],
    maxPageSize: [1, 10_000],
    maxBodyBytes: [1024, 100 * 1024 * 1024],
    maxUploadSize: [1024, 5 * 1024 * 1024 * 1024],
    loginAttemptsPerMinute: [1, 10_000],
    sessionIdleMinutes: [1, 60 * 24 * 30],
    sessionAbsoluteHours: [1, 24 * 365],
  } as const;
  const m = reader.map(mapOf(entries), '`limits`', LIMIT_KEYS);
  for (const [key, entry] of m ?? []) {
    if (key === 'requestsPerMinute') {
      limits.requestsPerMinute = readRates(ctx, entry);
      continue;
    }
    const [min, max] = bounded[key as keyof typeof bounded];
    const n =
      key === 'maxUploadSize'
        ? readSize(ctx, entry.value, '`limits.maxUploadSize`', min, max, 'NF601')
        : reader.integer(entry.value, `\`limits.${key}\``, min, max);
    if (n !== null) limits[key as keyof typeof bounded] = n;
  }
  if (limits.pageSize > limits.maxPageSize) {
    const at = m?.get('pageSize') ?? m?.get('maxPageSize');
    if (at) {
      ctx.bag.report(
        'NF601',
        at.value.span,
        `\`limits.pageSize\` (${limits.pageSize}) is above \`limits.maxPageSize\` (${limits.maxPageSize}).`,
        'raise maxPageSize or lower pageSize',
      );
    }
  }
  return limits;
}

function readRates(ctx: CompileContext, entry: YEntry): Record<string, number> {
  const { reader } = ctx;
  const v = entry.value;
  if (v.kind === 'scalar') {
    const n = reader.integer(v, '`limits.requestsPerMinute`', 1, 1_000_000);
    return n === null
      ? { ...DEFAULT_LIMITS.requestsPerMinute }
      : { default: n, guest: Math.min(n, DEFAULT_LIMITS.requestsPerMinute['guest']!) };
  }
  const out: Record<string, number> = { ...DEFAULT_LIMITS.requestsPerMinute };
  for (const e of reader.dict(v, '`limits.requestsPerMinute`')) {
    const known = ['default', 'guest', ...ctx.roleNames];
    if (!known.includes(e.key)) {
      ctx.bag.report(
        'NF304',
        e.keySpan,
        `\`${e.key}\` is not a role, \`default\` or \`guest\`.`,
        suggestion(e.key, known, 'role'),
      );
      continue;
    }
    const n = reader.integer(e.value, `\`limits.requestsPerMinute.${e.key}\``, 1, 1_000_000);
    if (n !== null) out[e.key] = n;
  }
  return out;
}
