/**
 * The words demo values are made of: people's names, places, organisations, things and the pieces
 * of short titles and prose. Plain lists, none written for one product: which list a field draws
 * from is decided by its name and type (`realistic.ts`). A compact stand-in for a fake-data
 * library, which the project does not install (decision 0063).
 */

export const FIRST_NAMES = [
  'Amelia',
  'Lucas',
  'Sofia',
  'Noah',
  'Chloé',
  'Mateo',
  'Hannah',
  'Oliver',
  'Yuki',
  'Elena',
  'Samuel',
  'Priya',
  'Jonas',
  'Clara',
  'Tomás',
  'Leila',
  'Marcus',
  'Ingrid',
  'Daniel',
  'Fatima',
  'Hugo',
  'Maya',
  'Felix',
  'Nora',
  'Ravi',
  'Julia',
  'Kenji',
  'Alice',
  'Omar',
  'Beatriz',
] as const;

export const LAST_NAMES = [
  'Martin',
  'Keller',
  'Rossi',
  'Dubois',
  'Novak',
  'Silva',
  'Fischer',
  'Okafor',
  'Tanaka',
  'Moreau',
  'Lindqvist',
  'García',
  'Schmidt',
  'Patel',
  'Brennan',
  'Costa',
  'Haddad',
  'Jensen',
  'Weber',
  'Ito',
  'Laurent',
  'Kowalski',
  'Murphy',
  'Almeida',
  'Bauer',
  'Nakamura',
  'Petit',
  'Horvat',
  'Evans',
  'Meyer',
] as const;

export const CITIES = [
  'Lyon',
  'Hamburg',
  'Porto',
  'Utrecht',
  'Ghent',
  'Bologna',
  'Zurich',
  'Gothenburg',
  'Kraków',
  'Valencia',
  'Edinburgh',
  'Nantes',
  'Leipzig',
  'Bilbao',
  'Tampere',
  'Graz',
] as const;

export const STREETS = [
  'Station Road',
  'Rue de la République',
  'Hafenstraße',
  'Avenida da Liberdade',
  'Market Street',
  'Kanaalweg',
  'Via Roma',
  'Harbour Lane',
  'Lindenallee',
  'Calle Mayor',
] as const;

/** Made-up organisation names, read with a suffix ("Northwind Logistics"). */
export const COMPANY_STEMS = [
  'Northwind',
  'Bluefjord',
  'Alder & Finch',
  'Brightwater',
  'Kestrel',
  'Larkspur',
  'Meridian',
  'Oakridge',
  'Pinecrest',
  'Redstone',
  'Silverline',
  'Tidewater',
  'Westbrook',
  'Juniper',
] as const;

export const COMPANY_SUFFIXES = [
  'Logistics',
  'Studio',
  'Foods',
  'Consulting',
  'Health',
  'Energy',
  'Labs',
  'Retail',
  'Partners',
] as const;

export const TEAMS = [
  'Finance',
  'Operations',
  'Sales',
  'Marketing',
  'Engineering',
  'Customer Care',
  'Legal',
  'Research',
  'Logistics',
  'Human Resources',
  'Procurement',
  'Quality',
  'Design',
  'Facilities',
] as const;

/** Things that are sold, lent or booked: read with an adjective ("Compact standing desk"). */
export const THINGS = [
  'standing desk',
  'laptop stand',
  'projector',
  'office chair',
  'monitor arm',
  'headset',
  'conference camera',
  'whiteboard',
  'notebook set',
  'coffee grinder',
  'desk lamp',
  'printer',
  'docking station',
  'meeting room',
  'bike rack',
  'filing cabinet',
] as const;

export const ADJECTIVES = [
  'Compact',
  'Large',
  'Wireless',
  'Ergonomic',
  'Quiet',
  'Portable',
  'Classic',
  'Bright',
  'Folding',
  'Premium',
  'Recycled',
  'Adjustable',
] as const;

/** The first half of a title: what happened or is asked. */
export const TITLE_ACTIONS = [
  'Train to',
  'Workshop in',
  'Client visit in',
  'Quarterly review in',
  'Supplier meeting in',
  'Conference travel to',
  'Team offsite in',
  'Training day in',
  'Site inspection in',
  'Kick-off in',
] as const;

/** Titles of a problem or a request (subjects of a message, a ticket or a task). */
export const SUBJECTS = [
  'Cannot sign in after the password reset',
  'Invoice shows the wrong billing address',
  'Export to spreadsheet stops halfway',
  'Please add two more seats to our plan',
  'Delivery arrived with a damaged box',
  'Question about the renewal date',
  'Reports load slowly on Monday mornings',
  'Change the contact person on our account',
  'Notification e-mails land in spam',
  'Order confirmation never arrived',
  'Request to move the meeting to Thursday',
  'Refund for a duplicate payment',
] as const;

/** Titles of written works (a book, an album, a course). */
export const WORK_TITLES = [
  'The Quiet Harbour',
  'A Field Guide to Rivers',
  'Letters from Porto',
  'The Last Lighthouse',
  'Small Gardens',
  'Winter in Kraków',
  'The Clockmaker’s Daughter',
  'Notes on Bread',
  'Maps of the Northern Sea',
  'The Glass Orchard',
  'An Atlas of Trees',
  'Salt and Stone',
] as const;

/** Sentences of short prose, joined two or three at a time. */
export const SENTENCES = [
  'Booked two weeks in advance to keep the price down.',
  'The customer asked for a follow-up call next week.',
  'Everything was agreed with the team beforehand.',
  'See the attached document for the details.',
  'This replaces the earlier version, which had a typo in the address.',
  'The meeting ran longer than planned, so the return was the next morning.',
  'Shared with the project team on Friday.',
  'No further action needed unless the supplier replies.',
  'The first attempt failed; the second one went through without problems.',
  'Discussed with the manager, who agreed to the change.',
  'It happens on the phone app as well as in the browser.',
  'Please keep this until the end of the quarter.',
] as const;

/** Words of a plain text value that has no better list (a shelf, a label). */
export const NOUNS = [
  'Amber',
  'Birch',
  'Cedar',
  'Delta',
  'Ember',
  'Fjord',
  'Granite',
  'Harbour',
  'Iris',
  'Juniper',
  'Kelp',
  'Linden',
  'Maple',
  'Nimbus',
  'Opal',
  'Pebble',
] as const;
