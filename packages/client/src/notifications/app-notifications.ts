/**
 * Whether the spec notifies anyone in the app: the shell shows the bell by it. On its own, small,
 * so that the first page loads this and not the bell's code.
 */
import { type Model } from '@ninefold/model';

/**
 * Whether some notification of the spec has the `app` channel; without one there is no bell.
 *
 * @example hasAppNotifications(model) // false for a spec without `notifications:`
 */
export function hasAppNotifications(model: Model): boolean {
  return Object.values(model.notifications).some((n) => n.channels.includes('app'));
}
