/**
 * @ninefold/language — the spec language: the notation and its compiler, from text to the model.
 *
 * @example
 * import { compile, formatDiagnostic } from '@ninefold/language';
 * const result = compile(text, { file: 'claims.md' });
 */
export { compile, TOP_LEVEL_KEYS, type CompileOptions, type CompileResult, type Summary } from './compile.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode, type Severity } from './diagnostics/codes.js';
export { type Diagnostic, type Span } from './diagnostics/diagnostic.js';
export { nearest, suggestion } from './diagnostics/suggest.js';
export { LIMITS } from './source/limits.js';
export { notationSchema } from './notation-schema.js';
export { translationFile, translationLocale } from './facets/translations.js';
