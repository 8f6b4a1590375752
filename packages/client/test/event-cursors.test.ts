/**
 * The live stream's cursors of the app's reads (`api/event-cursors.ts`, decision 0060): the stream
 * opens from the oldest; it waits for the reads under way; a read begun before the stream took its
 * cursor that answers from an older moment is told; data of an unknown moment means no cursor.
 */
import { describe, expect, it } from 'vitest';
import { eventCursors } from '../src/api/event-cursors';

describe('the cursors of the reads', () => {
  it('are the oldest read’s (by horizon), once no read is under way', async () => {
    const cursors = eventCursors();
    const list = cursors.reading();
    const record = cursors.reading();
    let settled = false;
    void cursors.settled().then(() => (settled = true));
    record('1042.1767225500000');
    await Promise.resolve();
    expect(settled).toBe(false);
    list('1040.1767225600000');
    await Promise.resolve();
    expect(settled).toBe(true);
    expect(cursors.take()).toBe('1040.1767225600000');
  });

  it('a read without a cursor (not of records, or failed) is no cursor; data of an unknown moment is none at all', () => {
    const cursors = eventCursors();
    cursors.reading()(null);
    expect(cursors.take()).toBeNull();
    cursors.reading()('7.1767225600000');
    expect(cursors.take()).toBe('7.1767225600000');
    cursors.holdUnknown();
    expect(cursors.take()).toBeNull();
  });

  it('tells of a read begun before the take that answers from an older moment, and only of it', () => {
    const cursors = eventCursors();
    let late = 0;
    cursors.onLate(() => (late += 1));
    const slow = cursors.reading();
    const newer = cursors.reading();
    cursors.reading()('1042.1767225600000');
    expect(cursors.take()).toBe('1042.1767225600000');
    newer('1043.1767225600000');
    expect(late).toBe(0);
    cursors.reading()('1000.1767225600000'); // begun after the take: read after the stream's cursor
    expect(late).toBe(0);
    slow('1041.1767225600000');
    expect(late).toBe(1);
  });
});
