// Refuses import cycles inside any package's sources, type-only imports included: part of
// `npm run lint`. ESLint's `import-x/no-cycle` already refuses run-time cycles, but it skips
// `import type` by design, and a circle of types is still two modules that cannot be read, moved or
// tested apart. madge (peer TypeScript 5) and dependency-cruiser 18 (Node 22) do not run on this
// project's toolchain, so the graph is read here with TypeScript's own pre-processor.
//
//   node scripts/import-cycles.mjs        exit 0: no cycle; 1: each cycle printed
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(root, 'packages');

/** Every .ts and .tsx file under a folder. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./a.js` → `./a.ts`, `./a` → `./a.tsx`, `./dir` → `./dir/index.ts`). */
function resolveRelative(from, specifier, files) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (files.has(candidate)) return candidate;
  return null;
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node).has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

let failed = false;
for (const name of readdirSync(packages).sort()) {
  const src = join(packages, name, 'src');
  let files;
  try {
    files = new Set(sources(src));
  } catch {
    continue; // a package without sources
  }
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveRelative(file, fileName, files);
      if (target !== null) targets.add(target);
    }
    graph.set(file, targets);
  }
  for (const component of cycles(graph)) {
    failed = true;
    console.error(`import cycle in packages/${name}: ${component.map((f) => relative(root, f)).join(' ↔ ')}`);
  }
}
if (failed) {
  console.error(
    'Each module of a circle imports another of it (type imports count): move what they share below both.',
  );
  process.exit(1);
}
