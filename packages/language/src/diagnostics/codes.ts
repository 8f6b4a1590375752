/**
 * The catalogue of compiler diagnostics: every code the compiler can produce, its severity and
 * the line of documentation that `docs/diagnostics.md` carries for it. Codes are stable: a code is
 * never reused for another problem.
 */
export type Severity = 'error' | 'warning';

interface CodeInfo {
  readonly severity: Severity;
  readonly title: string;
}

export const DIAGNOSTIC_CODES = {
  // Documents
  NF001: { severity: 'error', title: 'The file is not text: it contains NUL bytes or is not valid UTF-8.' },
  NF002: { severity: 'error', title: 'The file is larger than the compiler accepts.' },
  NF003: { severity: 'error', title: 'The document is empty.' },
  NF004: { severity: 'warning', title: 'A Markdown spec has no `## N.` section headings.' },
  NF005: { severity: 'error', title: 'A section heading has a number outside 1–9.' },
  NF006: { severity: 'error', title: 'A section appears twice.' },
  NF007: { severity: 'warning', title: 'Sections are not in the order 1–9.' },
  NF008: { severity: 'error', title: 'A fenced code block is never closed.' },
  NF009: { severity: 'error', title: 'A `yaml` block stands outside any numbered section.' },
  NF010: { severity: 'warning', title: 'A key is written in a section other than its own.' },
  NF011: { severity: 'error', title: 'A top-level key is not part of the notation.' },
  NF012: { severity: 'error', title: 'The same name is declared twice across blocks.' },
  // YAML
  NF101: { severity: 'error', title: 'The YAML does not parse.' },
  NF102: { severity: 'error', title: 'A mapping has the same key twice.' },
  NF103: { severity: 'error', title: 'Aliases expand beyond the allowed budget (an alias bomb).' },
  NF104: { severity: 'error', title: 'The document is nested deeper than allowed.' },
  NF105: { severity: 'error', title: 'A tab is used for indentation.' },
  // Notation
  NF201: { severity: 'error', title: 'A key is not known at this place.' },
  NF202: { severity: 'error', title: 'A value has the wrong type.' },
  NF203: { severity: 'error', title: 'A required key is missing.' },
  NF204: { severity: 'error', title: 'A name does not follow the naming convention of its kind.' },
  NF205: { severity: 'error', title: 'A field type is unknown.' },
  NF206: { severity: 'error', title: 'A constraint does not apply to the field’s type.' },
  NF207: { severity: 'error', title: 'A constraint has an invalid value.' },
  NF208: { severity: 'error', title: 'A default value does not fit its field.' },
  NF209: { severity: 'error', title: 'A name is reserved by the system.' },
  NF210: { severity: 'error', title: 'A list holds the same value twice.' },
  NF211: { severity: 'error', title: 'A value is not one of the allowed values.' },
  NF212: {
    severity: 'error',
    title: 'A duration is not a positive whole number with a unit (s, m, h, d, w).',
  },
  NF213: { severity: 'error', title: 'A transition has both `after` and `at`.' },
  NF214: { severity: 'error', title: 'An event is not written `Entity.event`.' },
  NF215: { severity: 'error', title: 'A webhook URL is neither an http(s) URL nor a `${NAME}` reference.' },
  NF216: {
    severity: 'error',
    title: 'A webhook secret is written in the spec, not read from the environment.',
  },
  NF217: { severity: 'error', title: 'A sign-up domain is not a domain name.' },
  NF218: { severity: 'warning', title: '`auth.signUpDomains` is set while sign-up is off.' },
  NF219: {
    severity: 'error',
    title: 'A single sign-on issuer is neither an https URL nor a `${NAME}` reference.',
  },
  NF220: {
    severity: 'error',
    title: 'A single sign-on client secret is written in the spec, not read from the environment.',
  },
  NF221: {
    severity: 'error',
    title:
      'A single sign-on setting that must name something is empty: the client id, the label or the role claim.',
  },
  NF222: { severity: 'error', title: 'A required ref says `onDelete: setNull`.' },
  NF223: { severity: 'warning', title: 'A list of refs says `onDelete: cascade`.' },
  NF224: {
    severity: 'error',
    title: 'A size is neither a whole number of bytes nor a number with KB, MB or GB.',
  },
  NF225: {
    severity: 'error',
    title: 'A computed field also has a default, is required, or says `readonly: false`.',
  },
  NF226: {
    severity: 'error',
    title: 'A field of a type that cannot be computed (a list, a ref, json, a file) is computed.',
  },
  NF227: { severity: 'error', title: 'A transition sets or requires a computed field.' },
  NF228: {
    severity: 'error',
    title: 'An `accept` entry is not a media type, or an image field accepts what is not an image.',
  },
  NF229: {
    severity: 'error',
    title: 'A widget’s measure is not a measure, or measures a field that is not a number.',
  },
  NF230: { severity: 'error', title: 'A widget groups by a field that cannot group.' },
  NF231: { severity: 'error', title: 'A widget’s chart or bucket does not fit how it is grouped.' },
  NF232: {
    severity: 'error',
    title: 'A dashboard names an entity, has no widgets, or another kind of screen has widgets.',
  },
  NF233: { severity: 'error', title: '`related` is given on a screen that is not a detail screen.' },
  // References
  NF301: { severity: 'error', title: 'An entity is not declared.' },
  NF302: { severity: 'error', title: 'A field is not declared on its entity.' },
  NF303: { severity: 'error', title: 'A state is not declared in its machine.' },
  NF304: { severity: 'error', title: 'A role is not declared.' },
  NF305: { severity: 'error', title: 'An error code is not in the catalogue.' },
  NF306: { severity: 'error', title: 'A constant is not declared.' },
  NF307: { severity: 'error', title: 'A transition is not declared.' },
  NF308: { severity: 'error', title: 'Roles inherit from each other in a cycle.' },
  NF309: { severity: 'error', title: 'An owner field is not a single ref to User.' },
  NF310: { severity: 'error', title: 'A screen is not declared.' },
  NF311: { severity: 'error', title: 'Two screens have the same path.' },
  NF312: { severity: 'warning', title: 'A state cannot be reached from the initial state.' },
  NF313: { severity: 'error', title: 'A field cannot be used here because of its type or flags.' },
  NF314: { severity: 'error', title: 'A transition leaves a state marked terminal.' },
  NF315: { severity: 'error', title: 'Two entities would be served at the same resource path.' },
  NF316: { severity: 'error', title: 'A transition fired by the clock names roles.' },
  NF317: { severity: 'error', title: 'An entity would be served at a path the API keeps for itself.' },
  NF318: {
    severity: 'error',
    title: 'A notification recipient is neither a ref to User, an email field nor a role.',
  },
  NF319: { severity: 'error', title: 'A notification to an email field is not sent by `email`.' },
  NF320: { severity: 'error', title: 'A notification text uses a name its record does not have.' },
  NF321: { severity: 'error', title: 'Sign-up gives a role that may change every user’s roles (an admin).' },
  NF322: {
    severity: 'warning',
    title: 'Sign-up gives a role that may read, change and delete every record.',
  },
  NF323: { severity: 'warning', title: 'No field of an entity can name its records.' },
  NF324: { severity: 'warning', title: 'An entity is displayed by its raw id.' },
  NF325: {
    severity: 'error',
    title: 'A child relation’s `via` is not a single ref of the child to the parent.',
  },
  NF326: { severity: 'error', title: 'Computed values read each other in a cycle.' },
  NF327: { severity: 'error', title: 'Two widgets of a dashboard have the same id.' },
  NF328: { severity: 'error', title: 'An enum field labels a value that is not one of its `values`.' },
  NF329: { severity: 'error', title: 'A related section’s `via` is not a ref to the screen’s entity.' },
  NF330: { severity: 'error', title: 'A related section is listed twice.' },
  NF331: {
    severity: 'error',
    title: 'An expression reads a member a file does not have: a file has `id`, `name`, `size` and `type`.',
  },
  NF332: {
    severity: 'error',
    title: 'A duration or instant written in an expression is not one.',
  },
  NF333: {
    severity: 'error',
    title: 'An expression moves or subtracts text that may not be a date.',
  },
  NF334: {
    severity: 'warning',
    title:
      'A field is named like an expression name, which the bare name means: the field is reached as `self.name`.',
  },
  NF335: { severity: 'warning', title: 'A text of the spec is not translated into one of its locales.' },
  NF336: {
    severity: 'warning',
    title: 'A locale of the spec has no shipped catalogue of the app’s own texts: they will be English.',
  },
  NF337: {
    severity: 'warning',
    title: 'A translation file is for a locale the spec does not offer.',
  },
  // Expressions
  NF401: { severity: 'error', title: 'An expression does not parse.' },
  NF402: { severity: 'error', title: 'An expression uses a name that is not defined there.' },
  NF403: { severity: 'error', title: 'An expression does not type-check.' },
  NF404: { severity: 'error', title: 'A condition does not evaluate to a boolean.' },
  NF405: { severity: 'error', title: 'An expression that must run as SQL cannot be translated.' },
  NF406: { severity: 'error', title: 'An expression is longer or deeper than allowed.' },
  NF407: {
    severity: 'error',
    title: 'A computed value reads what changes without a write (`user`, `now`, `today`, `own`).',
  },
  // Error catalogue
  NF501: { severity: 'error', title: 'An ICU message does not parse.' },
  NF502: { severity: 'error', title: 'A message uses an argument that is never supplied.' },
  NF503: { severity: 'error', title: 'An error status is not an HTTP error status (400–599).' },
  NF504: { severity: 'error', title: 'An error code does not look like `E_UPPER_SNAKE`.' },
  // Constants and limits
  NF601: { severity: 'error', title: 'A limit has a value outside its range.' },
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
