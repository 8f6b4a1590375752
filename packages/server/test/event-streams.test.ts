/**
 * The open streams of an app (`events/streams.ts`) on a moved clock, where the order of two things
 * matters and real time cannot make it happen on purpose: a stream's session is checked again (and
 * its user replaced by the session's present one) while an event is still being decided for it.
 * The event goes out all the same — found by `bench:instances`, whose 100 streams lost 16 events in
 * 20,000 this way.
 */
import { type UserContext } from '@ninefold/engine';
import { type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EventAccess } from '../src/events/access.js';
import { type EventHub, type Subscriber } from '../src/events/hub.js';
import { type LoggedEvent } from '../src/events/log.js';
import { LiveStreams, SESSION_CHECK_MS } from '../src/events/streams.js';

/** A hub that hands out the batches the test gives it. */
function givenHub() {
  const subscribers = new Set<Subscriber>();
  const hub = {
    start: async () => undefined,
    cursor: () => '7.1767225600000',
    parse: () => null,
    replay: async () => [],
    subscribe(subscriber: Subscriber) {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
  };
  const publish = (events: readonly LoggedEvent[]) => {
    for (const subscriber of subscribers) subscriber(events, '8.1767225600000');
  };
  return { hub: hub as unknown as EventHub, publish };
}

/** What a stream writes, on a response that only collects it. */
function givenResponse() {
  const written: string[] = [];
  const response = {
    destroyed: false,
    writableLength: 0,
    socket: null,
    write: (text: string) => written.push(text),
    end: () => undefined,
    on: () => response,
  };
  return { response: response as unknown as ServerResponse, written };
}

const event: LoggedEvent = {
  id: 'e1',
  tx: 8,
  entity: 'Note',
  recordId: 'n1',
  kind: 'created',
  transition: null,
  version: 1,
  at: 0,
  lastValues: null,
};

describe('an open stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gets an event decided while its session was checked again', async () => {
    const { hub, publish } = givenHub();
    let decide = () => undefined as void;
    const access: EventAccess = {
      // every viewer may read it, once the record is read: the test says when
      readersOf: (_, viewers) => new Promise((resolve) => (decide = () => resolve(new Set(viewers)))),
    };
    const streams = new LiveStreams(hub, access, (error) => {
      throw error;
    });
    const { response, written } = givenResponse();
    const user: UserContext = { id: 'u1', roles: ['editor'] };
    // each check reads the session afresh: the same user, a new context
    await streams.open({
      userId: 'u1',
      user,
      response,
      lastEventId: undefined,
      check: async () => ({ ...user }),
    });

    publish([event]);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS);
    decide();
    await vi.advanceTimersByTimeAsync(0);

    expect(written.filter((text) => text.startsWith('event: record'))).toEqual([
      `event: record\nid: 8.1767225600000\ndata: ${JSON.stringify({
        entity: 'Note',
        id: 'n1',
        kind: 'created',
        transition: null,
        version: 1,
      })}\n\n`,
    ]);
    streams.closeAll();
  });
});
