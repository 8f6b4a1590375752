/**
 * Every role's queues hold something: after the demo's first records, each list screen a role may
 * open (but one of only its own records when it may create none) is read as that role's demo account (`?screen=<id>`: its `where` and the role's read
 * permission, as the app reads it). A screen that shows nothing gets records made for it — by the
 * roles that may create them, other people first (a manager's "to approve" holds claims by others),
 * moved through the state machine by the roles the server offers each step to, the states the
 * screen's condition names tried first — until it shows a row or the tries run out.
 *
 * Nothing here knows a product: the screens, permissions and transitions are the model's, and every
 * write goes through the API as a person's would.
 */
import { type UserContext, accessFor, mayOpenScreen } from '@ninefold/engine';
import { type ApiRecord, type Model, type Screen } from '@ninefold/model';
import { pathTo } from './paths.js';

/** The part of the demo's API client (`DemoApi`) that reads screens as each role. */
export interface ScreenReader {
  readonly model: Model;
  call<T>(role: string, method: string, path: string): Promise<{ status: number; body: T }>;
  userContext(role: string): Promise<UserContext>;
}

/** What the filler needs of the demo data: make a record, move it to a state. */
export interface QueueFiller {
  /** Creates the entity's next record as the role (null when refused); `days`: its dates' day from today. */
  create(entity: string, role: string, days: number | undefined): Promise<ApiRecord | null>;
  /** Moves the record towards the state, each step by whoever the server offers it to. */
  moveTo(entity: string, record: ApiRecord, state: string): Promise<void>;
  /** The roles that may create the entity. */
  creators(entity: string): string[];
}

/** Records made for one empty screen at most: a screen no values can fill is left empty. */
const TRIES_PER_SCREEN = 12;

/** Whether the role's demo account sees at least one row on the list screen. */
export async function screenShowsRows(api: ScreenReader, role: string, screen: Screen): Promise<boolean> {
  const resource = api.model.entities[screen.entity!]!.resource;
  const answer = await api.call<{ data: unknown[] }>(
    role,
    'GET',
    `${resource}?screen=${encodeURIComponent(screen.id)}&limit=1`,
  );
  return answer.status === 200 && answer.body.data.length > 0;
}

/** The list screens each role may open, as `[role, screen]` pairs, on the entities the demo fills. */
export async function listScreensByRole(
  api: ScreenReader,
  filled: ReadonlySet<string>,
): Promise<[string, Screen][]> {
  const out: [string, Screen][] = [];
  for (const role of Object.keys(api.model.roles)) {
    const user = await api.userContext(role);
    for (const screen of api.model.screens) {
      if (screen.kind !== 'list' || screen.entity === null || !filled.has(screen.entity)) continue;
      if (mayOpenScreen(api.model, user, screen) && !ownOnlyOfOthers(api.model, user, screen))
        out.push([role, screen]);
    }
  }
  return out;
}

/**
 * Whether the screen shows only the reader's own records (`own`, or `<owner> == user.id`) to a role
 * that may not create any: no one can fill it for them (an auditor's "my claims").
 */
export function ownOnlyOfOthers(model: Model, user: UserContext, screen: Screen): boolean {
  const source = screen.where?.source ?? '';
  const owner = model.entities[screen.entity ?? '']?.owner ?? null;
  const ownOnly =
    /(^|[^.\w])own\b/.test(source) ||
    (owner !== null && new RegExp(`\\b${owner}\\s*==\\s*user\\.id\\b`).test(source));
  return ownOnly && accessFor(model, user, 'create', screen.entity!) === false;
}

/**
 * Fills the list screens that show a role nothing, and returns how many records it made for them.
 *
 * @example await fillEmptyQueues(api, filler, new Set(['Claim'])) // 1: a submitted claim for the manager
 */
export async function fillEmptyQueues(
  api: ScreenReader,
  filler: QueueFiller,
  filled: ReadonlySet<string>,
): Promise<number> {
  let made = 0;
  for (const [role, screen] of await listScreensByRole(api, filled)) {
    if (await screenShowsRows(api, role, screen)) continue;
    made += await fillScreen(api, filler, role, screen);
  }
  return made;
}

async function fillScreen(
  api: ScreenReader,
  filler: QueueFiller,
  role: string,
  screen: Screen,
): Promise<number> {
  const entity = screen.entity!;
  const source = screen.where?.source ?? '';
  // a queue of today's (`day == today`) wants records dated today
  const days = /\b(today|now)\b/.test(source) ? 0 : undefined;
  const creators = filler.creators(entity);
  // other people's records first: a queue of work waits on what someone else made
  const makers = [...creators.filter((r) => r !== role), ...creators.filter((r) => r === role)];
  let made = 0;
  for (const state of statesFor(api, entity, source)) {
    for (const maker of makers) {
      if (made >= TRIES_PER_SCREEN) return made;
      const record = await filler.create(entity, maker, days);
      if (record === null) continue;
      made += 1;
      if (state !== null) await filler.moveTo(entity, record, state);
      if (await screenShowsRows(api, role, screen)) return made;
    }
  }
  return made;
}

/**
 * The entity's states people can move a record to, those the screen's condition names first;
 * none when it names only states that a timed transition reaches (the job runner fills those);
 * `[null]` without a machine.
 */
function statesFor(api: ScreenReader, entity: string, source: string): (string | null)[] {
  const machine = api.model.states[entity];
  if (machine === undefined) return [null];
  const all = Object.keys(machine.states);
  const reachable = all.filter(
    (s) => s === machine.initial || pathTo(api.model, entity, machine.initial, s) !== null,
  );
  const named = all.filter((s) => new RegExp(`['"]${s}['"]`).test(source));
  const first = named.filter((s) => reachable.includes(s));
  if (named.length > 0 && first.length === 0) return [];
  return [...first, ...reachable.filter((s) => !first.includes(s))];
}
