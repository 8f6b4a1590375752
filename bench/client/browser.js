// Headless Chromium for the client benchmark: one browser, a fresh context (cold cache, its own JS
// heap) per measured page, 4× CPU throttling, and an init script that records, from before the
// page's first script runs: first contentful paint, largest contentful paint, layout shifts, long
// tasks, when a marker text first appears on screen, and the latency of every keystroke.
/* global window, document, PerformanceObserver, MutationObserver, MessageChannel, requestAnimationFrame, addEventListener -- the init script runs in the page */
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CPU_THROTTLING = 4;
const ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run'];
const VIEWPORT = { width: 1280, height: 800 };

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/**
 * Runs in the page before any of its scripts (`addInitScript`). `marker`: a text whose first
 * appearance in the document is timed, to the task after the next frame (when it is on screen).
 */
function instrument(marker) {
  const b = {
    fcp: null,
    lcp: null,
    lcpElement: null,
    shifts: [],
    longTasks: [],
    markerInDom: null,
    markerOnScreen: null,
    prerenderGone: null,
    keys: [],
  };
  window.__bench = b;
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
    } catch {
      // an entry type this browser lacks: its figure stays null
    }
  };
  observe('paint', (e) => {
    if (e.name === 'first-contentful-paint') b.fcp = e.startTime;
  });
  observe('largest-contentful-paint', (e) => {
    b.lcp = e.startTime;
    b.lcpElement = e.element === null ? null : e.element.tagName.toLowerCase();
  });
  observe('layout-shift', (e) => {
    if (!e.hadRecentInput) b.shifts.push([e.startTime, e.value]);
  });
  observe('longtask', (e) => b.longTasks.push([e.startTime, e.duration]));

  // the task after the next frame: what was in the DOM before it is painted by then
  const afterNextFrame = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(0);
    });

  if (marker !== null) {
    const seen = () => document.body !== null && document.body.textContent.includes(marker);
    const watcher = new MutationObserver(() => {
      if (b.markerInDom !== null || !seen()) return;
      b.markerInDom = performance.now();
      watcher.disconnect();
      afterNextFrame((t) => (b.markerOnScreen = t));
    });
    watcher.observe(document, { childList: true, subtree: true, characterData: true });
    // the prerender of the rows (decision 0018) giving way to the app's own: the app has taken over
    const handOver = new MutationObserver((records) => {
      if (!records.some((r) => [...r.removedNodes].some((n) => n.id === 'nf-prerender'))) return;
      handOver.disconnect();
      afterNextFrame((t) => (b.prerenderGone = t));
    });
    handOver.observe(document, { childList: true, subtree: true });
  }

  // keystrokes: `latency`, from the key's event time (when the browser got it) to after the next
  // frame; `handlers`, the page's own JS for the key: from this keydown listener (capturing on
  // window, the first) to one bubbling on window (the last), plus the same around `input`, which
  // includes React's synchronous render of the change (flushed in a microtask before the last one)
  let key = null;
  let inInput = null;
  addEventListener('keydown', (e) => (key = { at: e.timeStamp, k0: performance.now() }), true);
  addEventListener('keydown', () => key !== null && (key.k1 = performance.now()));
  addEventListener('input', () => inInput !== null && (inInput.i1 = performance.now()));
  addEventListener(
    'input',
    () => {
      if (key === null) return;
      const k = key;
      key = null;
      inInput = k;
      k.i0 = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const handlers = (k.k1 ?? k.k0) - k.k0 + ((k.i1 ?? k.i0) - k.i0);
        afterNextFrame((t) => b.keys.push({ handlers, latency: t - k.at }));
      };
      channel.port2.postMessage(0);
    },
    true,
  );
}

/**
 * A page in a fresh context (with `storageState`, e.g. a session cookie), throttled, instrumented.
 *
 * @example const { page, cdp, close } = await openPage(browser, { storageState, marker: 'Claim #09999' });
 */
export async function openPage(browser, { storageState, marker = null } = {}) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    ...(storageState === undefined ? {} : { storageState }),
    serviceWorkers: 'block', // a cold load every time: no service worker answers from its cache
  });
  const page = await context.newPage();
  await page.addInitScript(instrument, marker);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLING });
  return { page, cdp, context, close: () => context.close() };
}

/** The page's JS heap after a full GC, and its DOM node count. */
export async function heapAndNodes(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const nodes = metrics.find((m) => m.name === 'Nodes')?.value ?? null;
  return { heap: usedSize, nodes };
}

/** What the init script recorded. */
export function recorded(page) {
  return page.evaluate(() => window.__bench);
}
