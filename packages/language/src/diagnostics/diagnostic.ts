import { DIAGNOSTIC_CODES, type DiagnosticCode, type Severity } from './codes.js';
import { type LineIndex } from '../source/line-index.js';

/** A problem in a spec, located like a compiler's: `file:line:column  CODE  message`. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** How to fix it, often with the nearest valid name; null when the message says it all. */
  readonly hint: string | null;
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like an editor's. */
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** A half-open range of UTF-16 offsets into the file. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Collects the diagnostics of one file; the compiler never stops at the first. */
export class DiagnosticBag {
  readonly #items: Diagnostic[] = [];
  readonly #seen = new Set<string>();

  constructor(
    readonly file: string,
    private readonly lines: LineIndex,
  ) {}

  report(code: DiagnosticCode, span: Span, message: string, hint: string | null = null): void {
    // one problem reached along two paths (a merged block, say) is reported once
    const key = `${code}:${span.start}:${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const start = this.lines.position(span.start);
    const end = this.lines.position(Math.max(span.start, span.end));
    this.#items.push({
      code,
      severity: DIAGNOSTIC_CODES[code].severity,
      message: clip(message),
      hint: hint === null ? null : clip(hint),
      file: this.file,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
    });
  }

  get items(): readonly Diagnostic[] {
    return [...this.#items].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  get hasErrors(): boolean {
    return this.#items.some((d) => d.severity === 'error');
  }
}

/** Longest message or hint: a name from the spec can be huge, a diagnostic stays one readable line. */
const MAX_MESSAGE = 400;

function clip(text: string): string {
  return text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE - 1)}…`;
}
