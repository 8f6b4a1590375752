/**
 * The cache keys of dashboards' figures, apart from the dashboard's code so that every write (in
 * `records.ts`, in the first chunk) can mark them stale without loading it.
 */

/** Every dashboard's figures. */
export const DASHBOARDS_KEY = ['dashboard'] as const;

/**
 * The cache key of one dashboard screen's figures.
 *
 * @example dashboardKey('my-figures') // ['dashboard', 'my-figures']
 */
export const dashboardKey = (screen: string) => [...DASHBOARDS_KEY, screen] as const;
