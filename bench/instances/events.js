// The second part of the instances benchmark: how long a change takes to reach the open event
// streams (`GET <basePath>/events`, Server-Sent Events; packages/model/src/events-protocol.ts).
// STREAMS streams are held by several users (a user may hold ten), spread over the instances; creates are sent one at a time,
// paced, to the instances in turn, so most events cross from one instance to another through
// PostgreSQL. Each create's `record` event is awaited on every stream.
import { performance } from 'node:perf_hooks';

const { fetch, AbortController } = globalThis;

/**
 * Whether the instance serves the stream: `{ ok: true }`, or why not (404: not there yet).
 */
export async function probeEvents(url, cookie) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  }).catch((error) => ({ status: 0, error }));
  controller.abort();
  if (response.status === 200) return { ok: true };
  return { ok: false, status: response.status };
}

/** Reads an event stream, calling `onEvent(name, data, at)` for each event; ends when aborted. */
async function readStream(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      // a block of comments alone (the heartbeat) is no event
      if (data.length > 0) onEvent(name, data.join('\n'), performance.now());
    }
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Opens `streams` streams over `urls` in turn, then sends `creates` creates (one every `paceMs`) to
 * the instances in turn, and times each create's event on every stream: from the create's answer
 * (its commit came just before) and from its request (an upper bound).
 */
export async function eventLatency({ urls, cookie, watchers, perWatcher, streams, creates, paceMs, body }) {
  const controller = new AbortController();
  const sent = new Map(); // id → { sentAt, answeredAt }
  const arrivals = []; // { id, at }
  const early = []; // events whose create had not answered yet: matched at the end
  try {
    return await timeEvents();
  } finally {
    // a stream refused or a create failed: the others end too, or the process would hang on them
    controller.abort();
  }

  async function timeEvents() {
    const opened = await Promise.all(
      Array.from({ length: streams }, async (_, i) => {
        const response = await fetch(`${urls[i % urls.length]}/api/events`, {
          headers: { cookie: watchers[Math.floor(i / perWatcher)], accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.status !== 200) throw new Error(`stream ${i}: ${response.status}`);
        void readStream(response, (name, data, at) => {
          if (name !== 'record') return;
          const event = JSON.parse(data);
          if (event.kind !== 'created') return;
          (sent.has(event.id) ? arrivals : early).push({ id: event.id, at, stream: i });
        });
        return response;
      }),
    );
    // every instance is listening by now; a moment for their LISTEN connections to settle
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let n = 0; n < creates; n += 1) {
      const sentAt = performance.now();
      const response = await fetch(`${urls[n % urls.length]}/api/claims`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-ninefold-csrf': '1' },
        body: JSON.stringify(body),
      });
      const answeredAt = performance.now();
      if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
      const { id } = await response.json();
      sent.set(id, { sentAt, answeredAt });
      await new Promise((resolve) => setTimeout(resolve, paceMs));
    }
    const expected = creates * opened.length;
    const deadline = performance.now() + 10_000;
    while (arrivals.length + early.length < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    const all = [...arrivals, ...early].filter((a) => sent.has(a.id));
    // which stream missed which create, by instance: where a loss happens says why
    const got = new Set(all.map((a) => `${a.stream} ${a.id}`));
    const order = [...sent.keys()];
    const missed = [];
    for (let stream = 0; stream < opened.length; stream += 1)
      order.forEach((id, n) => {
        if (!got.has(`${stream} ${id}`))
          missed.push({
            stream,
            streamInstance: stream % urls.length,
            create: n,
            createInstance: n % urls.length,
          });
      });
    const fromAnswer = all.map((a) => a.at - sent.get(a.id).answeredAt).sort((a, b) => a - b);
    const fromRequest = all.map((a) => a.at - sent.get(a.id).sentAt).sort((a, b) => a - b);
    return {
      streams: opened.length,
      creates,
      delivered: all.length,
      missing: expected - all.length,
      missed: missed.slice(0, 10),
      fromAnswer: { p50: percentile(fromAnswer, 50), p99: percentile(fromAnswer, 99) },
      fromRequest: { p50: percentile(fromRequest, 50), p99: percentile(fromRequest, 99) },
    };
  }
}
