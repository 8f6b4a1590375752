/**
 * A stand-in for the browser's `EventSource` that a test drives: it opens when told, emits events
 * in the stream's shape (`events-protocol.ts`), drops or refuses its connection, and records
 * whether the app closed it. The app reaches it through `renderApp(w, { streams })`.
 */
import { type RecordChangeEvent, STREAM_EVENTS } from '@ninefold/model';
import { type EventSourceLike, type OpenEventSource } from '../src/live/stream';

export class FakeEventSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  private lastId = 0;

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = 2;
    this.closed = true;
  }

  /** The server answered with the stream. */
  connect(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** One `record` event, as the server writes it. */
  record(change: RecordChangeEvent): void {
    this.emit(STREAM_EVENTS.record, JSON.stringify(change));
  }

  /** A `resync` event: the server cannot say what was missed. */
  resync(): void {
    this.emit(STREAM_EVENTS.resync, '{}');
  }

  /** Any event with any data (what a broken or hostile server might send). */
  emit(type: string, data: string): void {
    const event = new MessageEvent(type, { data, lastEventId: String(++this.lastId) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** The server refused the stream (a 401, a 503): the browser gives up on this one. */
  refuse(): void {
    this.readyState = 2;
    this.onerror?.(new Event('error'));
  }
}

/** Every stream the app opened, newest last. */
export class FakeStreams {
  readonly opened: FakeEventSource[] = [];

  readonly open: OpenEventSource = (url) => {
    const source = new FakeEventSource(url);
    this.opened.push(source);
    return source;
  };

  /** The stream the app opened last, once it has opened one. */
  get current(): FakeEventSource {
    const source = this.opened.at(-1);
    if (source === undefined) throw new Error('The app has opened no event stream.');
    return source;
  }
}
