/**
 * The built-in `User` entity's own words (decision 0067): the compiler names it with them, the
 * shipped catalogues translate them (`catalogue/<language>.json`, beside the built-in messages),
 * and a spec's translation files translate only the fields a spec adds to it.
 */
/** In English: the source of the shipped catalogues' translations. */
export const BUILTIN_USER_WORDS = {
  'User.label': 'User',
  'User.pluralLabel': 'Users',
  'User.description': 'A person who signs in, with the roles that decide what they may do.',
  'User.fields.email.label': 'Email',
  'User.fields.name.label': 'Name',
  'User.fields.roles.label': 'Roles',
  'User.fields.disabled.label': 'Disabled',
} as const;

/** The keys of {@link BUILTIN_USER_WORDS}. */
export const BUILTIN_USER_KEYS = Object.keys(
  BUILTIN_USER_WORDS,
) as readonly (keyof typeof BUILTIN_USER_WORDS)[];

/** The fields the built-in `User` has of its own (a spec may add others, but not redefine these). */
export const BUILTIN_USER_FIELDS: ReadonlySet<string> = new Set(
  BUILTIN_USER_KEYS.flatMap((key) => /^User\.fields\.([^.]+)\.label$/.exec(key)?.[1] ?? []),
);
