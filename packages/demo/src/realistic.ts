/**
 * Demo values that read like real data, chosen by a field's name and type alone: a person's name
 * for `name` on a person-like entity, an e-mail address made of that same name, a title that reads
 * like one, prose for a description, money of a plausible size within the field's bounds, dates
 * spread over the past weeks (the coming weeks for a due date). Nothing here knows a product: the
 * words are generic (`words.ts`) and each field's bounds and pattern are the spec's.
 *
 * Deterministic: every value comes from a generator seeded with the seed, the entity, the field,
 * the record's ordinal and the attempt, so the same seed makes the same demo on every start.
 */
import { type Field, type Value } from '@ninefold/model';
import {
  ADJECTIVES,
  CITIES,
  COMPANY_STEMS,
  COMPANY_SUFFIXES,
  FIRST_NAMES,
  LAST_NAMES,
  NOUNS,
  SENTENCES,
  STREETS,
  SUBJECTS,
  TEAMS,
  THINGS,
  TITLE_ACTIONS,
  WORK_TITLES,
} from './words.js';

/** Which demo record a value is for: the generator's seed is made of these. */
export interface Realism {
  readonly entity: string;
  /** The record's place in its series (1, 2, …). */
  readonly ordinal: number;
  /** The demo's seed (same seed, same demo). */
  readonly seed: string;
  /** Another try at the same record (after a unique value was taken): other values. */
  readonly attempt?: number;
  /** Days from today of the record's date fields, when the caller wants one day (a queue of today's). */
  readonly days?: number;
}

/** A random number generator in [0, 1), the same sequence for the same text (FNV-1a, then mulberry32). */
export function seededRandom(text: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const DAY = 86_400_000;

/** Past days of a series' dates by ordinal: together they span more than five weeks. */
const PAST_DAYS = [-3, -11, -19, -27, -6, -34, -15, -41];
/** Coming days of a series' due dates by ordinal. */
const FUTURE_DAYS = [4, 9, 16, 23, 6, 30, 12, 2];

const PERSON_ENTITY =
  /user|person|people|member|employee|staff|contact|author|customer|client|patient|student|guest|agent/i;
const ORGANISATION_ENTITY =
  /organi[sz]ation|company|supplier|vendor|partner|account|tenant|firm|brand|publisher/i;
const TEAM_ENTITY = /department|team|group|unit|division/i;
const PLACE_ENTITY = /site|location|office|branch|venue|warehouse|store|building|city|campus/i;
const WORK_ENTITY = /^(book|album|film|movie|course|song|podcast|episode|publication|novel)s?$/i;
const REQUEST_ENTITY = /ticket|issue|request|case|message|task|incident|question|bug/i;
const DUE_FIELD = /due|deadline|until|expir|ends?(on|at)?$|return|renew/i;
const TEXT_FIELD =
  /description|notes?$|body|comment|details|reason|resolution|message|summary|signature|remarks?|bio/i;

const lower = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');

/** The person a demo record is about: the same for its name and its e-mail field. */
export function personOf(realism: Realism): { readonly first: string; readonly last: string } {
  const random = seededRandom(
    `${realism.seed}|${realism.entity}|person|${realism.ordinal}|${realism.attempt ?? 0}`,
  );
  return { first: choose(FIRST_NAMES, random), last: choose(LAST_NAMES, random) };
}

function choose<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)]!;
}

const between = (lo: number, hi: number, random: () => number) => lo + random() * (hi - lo);

function companyOf(random: () => number): string {
  return `${choose(COMPANY_STEMS, random)} ${choose(COMPANY_SUFFIXES, random)}`;
}

function sentences(count: number, random: () => number): string {
  const start = Math.floor(random() * SENTENCES.length);
  return Array.from({ length: count }, (_, k) => SENTENCES[(start + k * 5) % SENTENCES.length]!).join(' ');
}

/** Text within the field's length bounds: shortened at a word, or lengthened by sentences. */
function fitText(field: Field, text: string, random: () => number): string {
  const min = typeof field.minLength?.value === 'number' ? field.minLength.value : 0;
  const max = typeof field.maxLength?.value === 'number' ? field.maxLength.value : 2000;
  let out = text;
  while (out.length < min) out = `${out} ${sentences(1, random)}`;
  if (out.length <= max) return out;
  const cut = out.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space >= Math.max(min, 1) ? cut.slice(0, space) : cut).trimEnd();
}

/** A name-like or other plain text value by the field's name and the entity's. */
function textFor(field: Field, realism: Realism, random: () => number): string {
  const name = field.name;
  const { entity } = realism;
  const person = personOf(realism);
  if (/first.?name|given.?name/i.test(name)) return person.first;
  if (/last.?name|surname|family.?name/i.test(name)) return person.last;
  if (/^(title|subject|summary|headline|heading|topic)$/i.test(name) || /title$|subject$/i.test(name)) {
    if (/subject/i.test(name) || REQUEST_ENTITY.test(entity)) return choose(SUBJECTS, random);
    if (WORK_ENTITY.test(entity)) return choose(WORK_TITLES, random);
    return `${choose(TITLE_ACTIONS, random)} ${choose(CITIES, random)}`;
  }
  if (field.type === 'text' || TEXT_FIELD.test(name)) return sentences(field.type === 'text' ? 2 : 1, random);
  if (/author|contact|assignee|person|manager|owner|borrower/i.test(name))
    return `${person.first} ${person.last}`;
  if (/name$/i.test(name)) {
    if (PERSON_ENTITY.test(entity)) return `${person.first} ${person.last}`;
    if (ORGANISATION_ENTITY.test(entity)) return companyOf(random);
    if (TEAM_ENTITY.test(entity))
      return TEAMS[(realism.ordinal - 1 + (realism.attempt ?? 0) * 7) % TEAMS.length]!;
    if (PLACE_ENTITY.test(entity))
      return `${choose(CITIES, random)} ${choose(['office', 'hub', 'campus', 'centre'], random)}`;
    return `${choose(ADJECTIVES, random)} ${choose(THINGS, random)}`;
  }
  if (/address|street/i.test(name))
    return `${1 + Math.floor(random() * 120)} ${choose(STREETS, random)}, ${choose(CITIES, random)}`;
  if (/city|town/i.test(name)) return choose(CITIES, random);
  if (/domain|host/i.test(name))
    return `${lower(choose(COMPANY_STEMS, random)).replace(/\./g, '')}.example.com`;
  if (/merchant|company|organi[sz]ation|supplier|vendor|shop|store/i.test(name)) return companyOf(random);
  if (/department|team/i.test(name)) return choose(TEAMS, random);
  if (/article|product|item|model/i.test(name))
    return `${choose(ADJECTIVES, random)} ${choose(THINGS, random)}`;
  if (/isbn/i.test(name)) return `978${digits(10, random)}`;
  if (/barcode|ean|upc/i.test(name)) return digits(12, random);
  if (/sku/i.test(name)) return `SKU-${digits(5, random)}`;
  if (/currency/i.test(name)) return choose(['EUR', 'GBP', 'USD', 'CHF'], random);
  if (/number|reference|^ref|code|^no$|id$/i.test(name)) {
    const prefix = (entity.replace(/[^A-Za-z]/g, '').slice(0, 3) || 'REF').toUpperCase();
    return `${prefix}-${new Date().getUTCFullYear()}-${digits(4, random)}`;
  }
  // reads like a location or a label ("Cedar B4"), not like a numbered placeholder
  return `${choose(NOUNS, random)} ${choose([...'ABCDEFGH'], random)}${1 + Math.floor(random() * 9)}`;
}

function digits(count: number, random: () => number): string {
  return Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
}

function num(bound: Field['min']): number | null {
  return bound === null ? null : Number(bound.value);
}

/** A plausible number for the field's name, before its bounds. */
function numberFor(field: Field, random: () => number): number {
  const name = field.name;
  const lo = num(field.min);
  const hi = num(field.max);
  if (/year/i.test(name)) return new Date().getUTCFullYear() - Math.floor(random() * 30);
  if (/rating|score|satisfaction|stars/i.test(name)) return between(lo ?? 1, hi ?? 5, random);
  if (/percent|discount|share/i.test(name)) return between(5, 60, random);
  if (/km|distance|mileage|miles/i.test(name)) return between(12, 480, random);
  if (/hours?$|duration|time/i.test(name)) return Math.round(between(0.5, 6, random) * 4) / 4;
  if (/quantity|qty|count|copies|attendees|people|guests|units|stock|pieces/i.test(name))
    return between(1, 8, random);
  if (/seats|capacity|size|headcount/i.test(name)) return between(4, 40, random);
  if (/rate$|fx|exchange/i.test(name)) return between(0.6, 1.6, random);
  if (field.type === 'money') {
    if (/budget|salary|revenue|turnover|limit|credit/i.test(name))
      return Math.round(between(20, 400, random)) * 1000;
    if (/price|rate|fee|cost|tariff/i.test(name)) return between(8, 240, random);
    // most amounts are small, a few are large: log-uniform from 8 to 650
    return Math.exp(between(Math.log(8), Math.log(650), random));
  }
  if (lo !== null && hi !== null && hi - lo <= 100_000) return between(lo, hi, random);
  return between(1, 100, random);
}

/** A number's candidates: the plausible one first, then ordinary fallbacks within the bounds. */
function numbers(field: Field, random: () => number): Value[] {
  const lo = num(field.min);
  const hi = num(field.max);
  const clamp = (n: number) => Math.min(hi ?? n, Math.max(lo ?? n, n));
  const scale = field.type === 'integer' ? 0 : (field.scale ?? 2);
  const fmt = (n: number): Value =>
    field.type === 'integer'
      ? Math.round(n)
      : field.type === 'money'
        ? roundMoney(n).toFixed(scale)
        : n.toFixed(scale);
  const first = clamp(numberFor(field, random));
  const fallbacks = [clamp(between(3, 20, random)), clamp(1), lo, hi, clamp(2), clamp(100)];
  const list = [first, ...fallbacks].filter((n): n is number => n !== null);
  return [...new Set(list.map(fmt).map(String))].map((text) =>
    field.type === 'integer' ? Number(text) : text,
  );
}

/** Money as prices are: to the ten cents below 100, to the euro above. */
function roundMoney(n: number): number {
  return n < 100 ? Math.round(n * 10) / 10 : Math.round(n);
}

function dayOffset(field: Field, realism: Realism, random: () => number): number {
  if (realism.days !== undefined) return realism.days;
  const k = (realism.ordinal - 1 + (realism.attempt ?? 0)) % PAST_DAYS.length;
  const jitter = Math.floor(random() * 3);
  return DUE_FIELD.test(field.name) ? FUTURE_DAYS[k]! + jitter : PAST_DAYS[k]! - jitter;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

/** A time of day in quarter hours: mornings for a start, afternoons for an end, office hours otherwise. */
function timeOfDay(field: Field, random: () => number): string {
  const [from, to] = /end|close|until|finish/i.test(field.name)
    ? [13 * 60, 18 * 60]
    : /start|open|from|begin/i.test(field.name)
      ? [8 * 60, 12 * 60]
      : [9 * 60, 17 * 60];
  return hhmm(from + Math.floor((random() * (to - from)) / 15) * 15);
}

/**
 * Candidates for a demo record's field, the most realistic first and ordinary fallbacks after (the
 * spec's rules choose among them); null for the types whose values come from the spec itself (an
 * enum's values, a ref's records, files, colours, JSON).
 *
 * @example realisticCandidates(titleField, now, { entity: 'Claim', ordinal: 2, seed: 'demo' }) // ['Workshop in Lyon', …]
 */
export function realisticCandidates(
  field: Field,
  now: Date,
  realism: Realism,
  sampleRegex: (pattern: string, random: () => number) => string,
): Value[] | null {
  const random = seededRandom(
    `${realism.seed}|${realism.entity}|${field.name}|${realism.ordinal}|${realism.attempt ?? 0}`,
  );
  const day = (offset: number) => new Date(now.getTime() + offset * DAY);
  switch (field.type) {
    case 'string':
    case 'text': {
      if (field.pattern !== null) {
        // the plain value when the pattern takes it (a domain), else strings the pattern makes
        const plain = textFor(field, realism, random);
        const samples = [0, 1, 2, 3, 4].map(() => sampleRegex(field.pattern!, random));
        return new RegExp(field.pattern).test(plain) ? [plain, ...samples] : samples;
      }
      return [
        fitText(field, textFor(field, realism, random), random),
        fitText(field, textFor(field, realism, random), random),
      ];
    }
    case 'email': {
      const person = personOf(realism);
      return [
        `${lower(person.first)}.${lower(person.last)}@example.com`,
        `${lower(person.first)}.${lower(person.last)}${realism.ordinal}@example.org`,
      ];
    }
    case 'url':
      if (/attachment|file|document|receipt|link/i.test(field.name))
        return [
          `https://files.example.com/${digits(6, random)}/${choose(['report', 'screenshot', 'invoice', 'notes'], random)}.pdf`,
        ];
      return [`https://www.${lower(choose(COMPANY_STEMS, random)).replace(/\./g, '')}.example.com/`];
    case 'phone':
      return [`+41 44 ${digits(3, random)} ${digits(2, random)} ${digits(2, random)}`];
    case 'integer':
    case 'decimal':
    case 'money':
      return numbers(field, random);
    case 'boolean':
      return random() < 0.3 ? [true, false] : [false, true];
    case 'date': {
      const first = day(dayOffset(field, realism, random))
        .toISOString()
        .slice(0, 10);
      const future = day(FUTURE_DAYS[(realism.ordinal - 1) % FUTURE_DAYS.length]!)
        .toISOString()
        .slice(0, 10);
      const list = [first, future, now.toISOString().slice(0, 10), field.min?.value, field.max?.value];
      return [...new Set(list.filter((v): v is string => typeof v === 'string'))];
    }
    case 'datetime': {
      const at = (date: Date) => {
        const minutes = 8 * 60 + Math.floor(random() * 40) * 15;
        return new Date(
          Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 0, minutes),
        ).toISOString();
      };
      const first = at(day(dayOffset(field, realism, random)));
      const list = [first, now.toISOString(), at(day(7)), field.min?.value, field.max?.value];
      return [...new Set(list.filter((v): v is string => typeof v === 'string'))];
    }
    case 'time': {
      const list = [
        timeOfDay(field, random),
        '12:00:00',
        field.min?.value,
        field.max?.value,
        '10:00:00',
        '15:00:00',
      ];
      return [
        ...new Set(
          list.filter((v): v is string => typeof v === 'string').map((v) => (v.length === 5 ? `${v}:00` : v)),
        ),
      ];
    }
    default:
      return null;
  }
}
