/**
 * What a fuzzed request may be answered (faults/fuzz.faults.ts): anything below 500, and when it is
 * refused, a problem+json whose code and every field error's code are in the model's catalogue.
 */
import { BUILTIN_ERRORS, type Model, PROBLEM_MEDIA_TYPE } from '@ninefold/model';

const BUILTIN_CODES = new Set<string>(BUILTIN_ERRORS.map((e) => e.code));

/** A value as JSON, cut at 300 characters: enough to reproduce a request, short enough to read. */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * What is wrong with an answer: a 5xx, or a refusal that is not a catalogue problem; null when fine.
 *
 * @example answerFault(model, 422, 'application/problem+json', '{"code":"E_VALIDATION"}') // null
 */
export function answerFault(model: Model, status: number, type: string, body: string): string | null {
  if (status >= 500) return `answered ${String(status)}`;
  if (status < 400) return null;
  if (!type.startsWith(PROBLEM_MEDIA_TYPE)) return `answered ${String(status)} as ${type}, not problem+json`;
  let problem: { code?: unknown; errors?: { code?: unknown }[] };
  try {
    problem = JSON.parse(body) as typeof problem;
  } catch {
    return `answered ${String(status)} with a problem that is not JSON`;
  }
  const codes = [problem.code, ...(problem.errors ?? []).map((e) => e.code)];
  const unknown = codes.filter(
    (c) => typeof c !== 'string' || !(BUILTIN_CODES.has(c) || Object.hasOwn(model.errors, c)),
  );
  return unknown.length === 0
    ? null
    : `answered ${String(status)} with codes outside the catalogue: ${short(unknown)}`;
}

/** A problem's code, or the status of any other answer: how the fuzz tallies what it reached. */
export function answerCode(status: number, body: string): string {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    if (status >= 400 && typeof code === 'string') return code;
  } catch {
    // not JSON: the status says it
  }
  return String(status);
}
