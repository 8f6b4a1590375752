/**
 * A file field in a text the server renders (decision 0054): a notification's subject and message,
 * and a catalogue message's arguments, show a file by its name and a list of files by their names,
 * never the `FileInfo` object as JSON.
 */
import { describe, expect, it } from 'vitest';
import { renderNotificationText } from '../src/index.js';
import { messageValues } from '../src/message-text.js';
import { model } from './fixtures.js';

const m = model(`
product: { name: Claims, locale: en }
entities:
  Claim:
    fields:
      title: string
      owner: { type: ref, to: User }
      receipt: file
      photos: { type: image, many: true }
states:
  Claim:
    initial: draft
    transitions:
      submit: { from: draft, to: submitted }
notifications:
  claim-submitted:
    on: Claim.submit
    to: [owner]
    subject: "{title}: {receipt}"
    message: "Photos: {photos}"
`);

const receipt = { id: 'f1', name: 'taxi.pdf', size: 1200, type: 'application/pdf' };
const photos = [
  { id: 'f2', name: 'front.png', size: 10, type: 'image/png' },
  { id: 'f3', name: 'back.png', size: 12, type: 'image/png' },
];

describe('a file field in rendered text', () => {
  it('renders a notification with the file’s name and the list’s names', () => {
    const record = { id: 'c1', title: 'Taxi', receipt, photos };
    expect(renderNotificationText(m, '{title}: {receipt}', record, null, 'en')).toBe('Taxi: taxi.pdf');
    expect(renderNotificationText(m, 'Photos: {photos}', record, null, 'en')).toBe(
      'Photos: front.png, back.png',
    );
  });

  it('gives a catalogue message the name of a file argument', () => {
    expect(messageValues(m, { value: receipt, list: photos })).toMatchObject({
      value: 'taxi.pdf',
      list: 'front.png, back.png',
    });
  });
});
