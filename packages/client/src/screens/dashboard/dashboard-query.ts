/**
 * A dashboard's figures over HTTP (`GET <basePath>/dashboards/<screen id>`), cached by TanStack
 * Query and asked again when the window regains focus: a dashboard is looked at, left, and come
 * back to, and its figures should be today's when it is. Every record write marks them stale.
 */
import { API_PATHS, type DashboardFigures } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { dashboardKey } from '../../api/dashboard-keys';
import { useHttp } from '../../runtime/runtime';

/**
 * The figures of a dashboard screen, as the server computed them for the signed-in viewer.
 *
 * @example const { data, error, refetch } = useDashboardFigures('overview');
 */
export function useDashboardFigures(screen: string) {
  const http = useHttp();
  return useQuery({
    queryKey: dashboardKey(screen),
    queryFn: ({ signal }) =>
      http.get<DashboardFigures>(`${API_PATHS.dashboards}/${encodeURIComponent(screen)}`, { signal }),
    refetchOnWindowFocus: true,
  });
}
