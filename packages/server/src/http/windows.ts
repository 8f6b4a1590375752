/**
 * The length of the limits' fixed windows. Every limit counts in the app's counter store
 * (`limits/`, decision 0057), the refused API tokens of an address included; `FixedWindows`, the
 * in-memory windows that counted them per instance, is gone.
 */
export { secondsLeft } from '../limits/counters.js';

/** The length of the request limit's and the sign-in limit's windows: a minute. */
export const WINDOW_MS = 60_000;
