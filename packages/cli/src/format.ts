import { type CompileResult, type Diagnostic } from '@ninefold/language';
import { type FacetKey, type Model } from '@ninefold/model';
import { type palette } from './io.js';

type Palette = ReturnType<typeof palette>;

/**
 * One diagnostic as a compiler prints it: `file:line:column  error  CODE  message`, the hint, and
 * the source line with the problem underlined.
 */
export function formatDiagnostic(d: Diagnostic, source: string, c: Palette): string {
  const severity = d.severity === 'error' ? c.red('error') : c.yellow('warning');
  const lines = [
    `${c.cyan(d.file)}:${c.yellow(String(d.line))}:${c.yellow(String(d.column))}  ${severity}  ${c.dim(d.code)}  ${d.message}`,
  ];
  const text = source.split('\n')[d.line - 1];
  if (text !== undefined && text.length <= 400) {
    const gutter = String(d.line);
    const width =
      d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, text.length - d.column + 1);
    lines.push(
      '',
      `  ${c.dim(gutter)}  ${text.replace(/\t/g, ' ')}`,
      `  ${' '.repeat(gutter.length)}  ${' '.repeat(d.column - 1)}${(d.severity === 'error' ? c.red : c.yellow)('~'.repeat(Math.min(width, 80)))}`,
    );
  }
  if (d.hint !== null) lines.push(`  ${c.bold('hint:')} ${d.hint}`);
  return `${lines.join('\n')}\n`;
}

/** The per-spec summary: what it declares and which facets it leaves to the defaults. */
export function formatSummary(file: string, result: CompileResult, c: Palette): string {
  if (!result.ok) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    return `${c.red('✗')} ${c.bold(file)}  ${errors} ${errors === 1 ? 'error' : 'errors'}\n`;
  }
  const s = result.summary;
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const parts = [
    count(s.entities, 'entity', 'entities'),
    count(s.fields, 'field'),
    count(s.screens, 'screen'),
    count(s.transitions, 'transition'),
    count(s.rules, 'rule'),
    count(s.roles, 'role'),
    count(s.errors, 'error code'),
    count(s.constants, 'constant'),
  ];
  const warnings = result.diagnostics.length;
  const out = [
    `${c.green('✓')} ${c.bold(file)}  ${parts.join(' · ')}${warnings > 0 ? c.yellow(`  (${count(warnings, 'warning')})`) : ''}`,
  ];
  if (s.unspecified.length === 0) out.push(`  all nine facets specified`);
  else {
    out.push(
      `  ${s.unspecified.length === 9 ? 'all nine facets' : count(s.unspecified.length, 'facet')} unspecified; defaults apply:`,
    );
    for (const facet of s.unspecified) out.push(facetLine(facet, result.model, c));
  }
  return `${out.join('\n')}\n`;
}

function facetLine(facet: FacetKey, model: Model, c: Palette): string {
  const f = model.facets[facet];
  return `    ${f.section}. ${c.bold(f.title)} ${c.dim('—')} ${f.defaultBehaviour}`;
}
