import { type DiagnosticBag, type Span } from '../diagnostics/diagnostic.js';

/** A fenced `yaml` block: its text and where that text starts in the file. */
export interface YamlBlock {
  readonly text: string;
  readonly offset: number;
  /** The section number it belongs to; null for a whole YAML file. */
  readonly section: number | null;
}

export interface Section {
  readonly number: number;
  readonly title: string;
  readonly heading: Span;
  readonly prose: string;
  readonly blocks: readonly YamlBlock[];
}

export interface MarkdownSpec {
  readonly title: string | null;
  readonly sections: ReadonlyMap<number, Section>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)/;
const H1 = /^ {0,3}#[ \t]+(.*?)[ \t#]*$/;
const H2 = /^ {0,3}##[ \t]+(.*?)[ \t#]*$/;
const NUMBERED = /^(\d+)[.)]?(?:[ \t]+(.*))?$/;

/**
 * Splits a Markdown spec into its title and its numbered sections, each with its prose and its
 * fenced `yaml` blocks. Headings inside fences are text, as in any Markdown renderer.
 */
export function splitMarkdown(text: string, bag: DiagnosticBag): MarkdownSpec {
  let title: string | null = null;
  const sections = new Map<number, Section>();
  let current: { number: number; title: string; heading: Span; prose: string[]; blocks: YamlBlock[] } | null =
    null;
  let lastNumber = 0;
  let discarding = false; // inside a section whose number is invalid or repeated

  const close = () => {
    if (current !== null) {
      sections.set(current.number, {
        number: current.number,
        title: current.title,
        heading: current.heading,
        prose: current.prose.join('\n').trim(),
        blocks: current.blocks,
      });
    }
    current = null;
  };

  let offset = 0;
  let fence: { marker: string; yaml: boolean; start: number; bodyStart: number } | null = null;
  const lines = text.split('\n');
  for (const rawLine of lines) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;

    if (fence !== null) {
      const m = FENCE.exec(line);
      const closes =
        m !== null && m[1]![0] === fence.marker[0] && m[1]!.length >= fence.marker.length && m[2] === '';
      if (closes) {
        if (fence.yaml) {
          const block: YamlBlock = {
            text: text.slice(fence.bodyStart, lineStart),
            offset: fence.bodyStart,
            section: current?.number ?? null,
          };
          if (current !== null) current.blocks.push(block);
          else if (!discarding) {
            bag.report(
              'NF009',
              { start: fence.start, end: fence.bodyStart - 1 },
              'This `yaml` block is not inside a numbered section, so it belongs to no facet.',
              'move it under its section, for example `## 3. Entities and their fields`',
            );
          }
        } else if (current !== null) current.prose.push(text.slice(fence.start, offset - 1));
        fence = null;
      }
      continue;
    }

    const f = FENCE.exec(line);
    if (f !== null) {
      const info = f[2]!.toLowerCase();
      fence = { marker: f[1]!, yaml: info === 'yaml' || info === 'yml', start: lineStart, bodyStart: offset };
      continue;
    }

    const h2 = H2.exec(line);
    if (h2 !== null) {
      const heading: Span = { start: lineStart, end: lineStart + line.length };
      const numbered = NUMBERED.exec(h2[1]!);
      if (numbered === null) {
        // an unnumbered sub-heading is prose of the section it stands in
        current?.prose.push(line);
        continue;
      }
      close();
      const number = Number(numbered[1]);
      const sectionTitle = (numbered[2] ?? '').trim();
      if (!Number.isInteger(number) || number < 1 || number > 9) {
        bag.report(
          'NF005',
          heading,
          `Section number ${numbered[1]} is not one of the nine facets.`,
          'number sections 1 to 9, as in `## 3. Entities and their fields`',
        );
        discarding = true;
        continue;
      }
      if (sections.has(number)) {
        const first = sections.get(number)!;
        bag.report(
          'NF006',
          heading,
          `Section ${number} appears a second time; the first is "${first.title}".`,
          'merge the two sections into one',
        );
        discarding = true;
        continue;
      }
      if (number < lastNumber) {
        bag.report(
          'NF007',
          heading,
          `Section ${number} comes after section ${lastNumber}.`,
          'order the sections 1 to 9, as the seed does',
        );
      }
      lastNumber = Math.max(lastNumber, number);
      discarding = false;
      current = { number, title: sectionTitle, heading, prose: [], blocks: [] };
      continue;
    }

    const h1 = H1.exec(line);
    if (h1 !== null && title === null && current === null) {
      title = h1[1]!.trim();
      continue;
    }
    current?.prose.push(line);
  }

  if (fence !== null) {
    bag.report(
      'NF008',
      { start: fence.start, end: fence.bodyStart - 1 },
      `This code block opened with ${fence.marker} is never closed.`,
      `end it with a line of ${fence.marker}`,
    );
  }
  close();
  return { title, sections };
}

/** True when a section's prose says nothing, or only "not shown" (as the seed's sections do). */
export function isNotShown(prose: string): boolean {
  const words = prose
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  return words === '' || words === 'not shown';
}
