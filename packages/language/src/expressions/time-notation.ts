/**
 * Durations and dates inside expressions, as people write them (decision 0064): each duration
 * literal is read when the spec compiles (NF332 for one that is not a duration), `d` for days
 * is rewritten to the standard CEL every runtime reads, and date arithmetic is only on dates
 * (NF333 for text that may not be one: `name - today` type-checks, as a date is text to CEL).
 */
import { type ASTNode } from '@marcbachmann/cel-js';
import { childrenOf } from './ast-walk.js';
import { type Constant, type Entity, readDuration, standardDuration, dateMs } from '@ninefold/model';

/** A problem at a place in the (expanded) expression source. */
export interface TimeProblem {
  readonly code: 'NF332' | 'NF333';
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly hint: string;
}

export interface TimeNotation {
  readonly problems: readonly TimeProblem[];
  /** The source with day durations in standard CEL units; the source itself when it has none. */
  readonly source: string;
}

/** What reading the notation needs of the scope. */
export interface TimeScope {
  readonly entity: Entity | null;
  readonly constants: Readonly<Record<string, Constant>>;
  /** The CEL type of a piece of the source, or null when it does not check on its own. */
  readonly typeOf: (text: string) => string | null;
  /** The value of a piece of the source made of literals and constants only. */
  readonly valueOf: (text: string) => unknown;
}

const DURATION = 'google.protobuf.Duration';

/**
 * @example readTimeNotation(ast, "dueOn + duration('14d') < today", scope).source // "dueOn + duration('1209600s') < today"
 */
export function readTimeNotation(ast: ASTNode, source: string, scope: TimeScope): TimeNotation {
  const problems: TimeProblem[] = [];
  const rewrites: { start: number; end: number; text: string }[] = [];
  const text = (n: ASTNode) => source.slice(n.range.start, n.range.end);

  const isDate = (n: ASTNode): boolean => {
    switch (n.op) {
      case 'value':
        return typeof n.args === 'string' && isDateText(n.args);
      case 'id': {
        if (n.args === 'today') return true;
        const constant = Object.hasOwn(scope.constants, n.args) ? scope.constants[n.args] : undefined;
        if (typeof constant === 'string') return isDateText(constant);
        return scope.entity?.fields[n.args]?.type === 'date';
      }
      case '.': {
        const [target, name] = n.args;
        return (
          target.op === 'id' &&
          (target.args === 'self' || target.args === 'old') &&
          scope.entity?.fields[name]?.type === 'date'
        );
      }
      case '+':
      case '-':
        return isDate(n.args[0]) && scope.typeOf(text(n.args[1])) === DURATION;
      case '?:':
        return isDate(n.args[1]) && isDate(n.args[2]);
      default:
        return false;
    }
  };

  const visit = (n: ASTNode): void => {
    if (n.op === 'call' && n.args[0] === 'duration' && n.args[1].length === 1) {
      const arg = n.args[1][0]!;
      // a duration made of constants (`duration(SLA)`, `duration(string(LOAN_DAYS) + 'd')`) is read now too
      const written =
        arg.op === 'value' ? arg.args : constantsOnly(arg) ? scope.valueOf(text(arg)) : undefined;
      if (typeof written === 'string') {
        const reading = readDuration(written);
        if ('problem' in reading) {
          problems.push({
            code: 'NF332',
            start: arg.range.start,
            end: arg.range.end,
            message: `\`${written}\`${arg.op === 'value' ? '' : ` (the value of \`${text(arg)}\`)`} is not a duration: ${reading.problem}`,
            hint: "write a number and a unit: `d` (days of 24 hours), `h`, `m`, `s` or `ms`, as in duration('1h30m')",
          });
        } else if (/\dd/.test(written)) {
          rewrites.push({
            start: arg.range.start,
            end: arg.range.end,
            text: `'${standardDuration(reading.ms)}'`,
          });
        }
      }
    }
    if (n.op === 'call' && n.args[0] === 'timestamp' && n.args[1].length === 1) {
      const arg = n.args[1][0]!;
      if (arg.op === 'value' && typeof arg.args === 'string' && !isInstantText(arg.args)) {
        problems.push({
          code: 'NF332',
          start: arg.range.start,
          end: arg.range.end,
          message: `\`${arg.args}\` is not an instant`,
          hint: "write a date, a time and a zone, as in timestamp('2026-01-31T09:30:00Z')",
        });
      }
    }
    if (n.op === '+' || n.op === '-') checkDateArithmetic(n);
    for (const child of childrenOf(n)) visit(child);
  };

  const checkDateArithmetic = (n: ASTNode & { args: [ASTNode, ASTNode] }) => {
    const [left, right] = n.args;
    if (scope.typeOf(text(left)) !== 'string') return;
    const rightType = scope.typeOf(text(right));
    const operands =
      rightType === DURATION ? [left] : n.op === '-' && rightType === 'string' ? [left, right] : [];
    for (const operand of operands) {
      if (isDate(operand)) continue;
      problems.push({
        code: 'NF333',
        start: operand.range.start,
        end: operand.range.end,
        message: `\`${text(operand)}\` is text that may not be a date, so it cannot be moved by a duration or subtracted`,
        hint: "date arithmetic works on `date` fields, `today` and dates written out, as in '2026-01-31'",
      });
    }
  };

  visit(ast);
  let out = source;
  for (const r of rewrites.sort((a, b) => b.start - a.start))
    out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return { problems, source: out };
}

/** Whether a node reads constants and literals only, and some constant. */
function constantsOnly(n: ASTNode): boolean {
  let constant = false;
  const visit = (x: ASTNode): boolean => {
    if (x.op === 'id') return (constant = /^[A-Z][A-Z0-9_]*$/.test(x.args));
    if (x.op === 'value') return true;
    if (x.op === 'call' || x.op === '+' || x.op === '?:' || x.op === '==' || x.op === '!=')
      return childrenOf(x).every(visit);
    return false;
  };
  return visit(n) && constant;
}

function isDateText(text: string): boolean {
  try {
    dateMs(text);
    return true;
  } catch {
    return false;
  }
}

/** An instant as CEL's `timestamp()` reads it: RFC 3339 with a zone. */
function isInstantText(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/.test(text) &&
    !Number.isNaN(Date.parse(text))
  );
}
