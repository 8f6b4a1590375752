/**
 * Vite's build manifest of the client (`dist/.vite/manifest.json`): which chunks and styles each
 * source module is built into, so that a prerendered page can link what its screen is made of.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each module's chunk, styles and static imports, by the module's source path. */
export type BuildManifest = Readonly<
  Record<
    string,
    { readonly file: string; readonly css?: readonly string[]; readonly imports?: readonly string[] }
  >
>;

/** The build manifest beside the built client, or null when the build wrote none. */
export function readBuildManifest(clientDir: string): BuildManifest | null {
  const file = join(clientDir, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuildManifest) : null;
}

/**
 * The styles and code of `modules` and of everything they import statically, less what the page
 * itself already links (the entry's, `index.html`), as paths under the site's root.
 *
 * @example assetsOf(manifest, ['src/screens/list/ListScreen.tsx']) // { styles: ['/assets/ListScreen-….css', …], scripts: […] }
 */
export function assetsOf(
  manifest: BuildManifest,
  modules: readonly string[],
): { styles: string[]; scripts: string[] } {
  // depth first, a module after what it imports: the order Vite links a chunk's styles in, which
  // the cascade depends on (the list's own rules come after Mantine's table's)
  const closure = (roots: readonly string[]) => {
    const order: string[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (seen.has(key) || chunk === undefined) return;
      seen.add(key);
      for (const next of chunk.imports ?? []) visit(next);
      order.push(key);
    };
    roots.forEach(visit);
    return order;
  };
  const linked = new Set(closure(['index.html']));
  const styles = new Set<string>();
  const scripts = new Set<string>();
  for (const key of closure(modules)) {
    const chunk = manifest[key];
    if (linked.has(key) || chunk === undefined) continue;
    scripts.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) styles.add(`/${css}`);
  }
  return { styles: [...styles], scripts: [...scripts] };
}
