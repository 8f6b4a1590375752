/**
 * Every area of this language's catalogue past the first, and its translations of the built-in
 * error messages: one chunk, loaded after the first render (`../catalogue.ts`).
 */
const areas = import.meta.glob<Readonly<Record<string, string>>>(['./*.json', '!./first.json'], {
  eager: true,
  import: 'default',
});

export const messages: Readonly<Record<string, string>> = Object.assign({}, ...Object.values(areas));
export const builtins: Readonly<Record<string, string>> = {};
