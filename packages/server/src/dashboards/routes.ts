/**
 * `GET <basePath>/dashboards/<screen id>` (decision 0046): the figures of a dashboard screen as the
 * signed-in viewer may see them (`DashboardFigures`). An unknown screen, a screen that is not a
 * dashboard and one the viewer's roles may not open (`mayOpenScreen`) are all E_NOT_FOUND, so the
 * answer says nothing of screens the viewer may not open. A widget the viewer may not see (over an
 * entity they may not read, or a field their mask hides) is left out of `widgets`. Rate-limited as
 * every read (the app's hook).
 */
import { mayOpenScreen } from '@ninefold/engine';
import { API_PATHS, type DashboardFigures, type Model, type WidgetFigure } from '@ninefold/model';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { requireUserContext } from '../auth/request-auth.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { readerLocale } from '../http/reader-locale.js';
import { entityTables } from './readable-rows.js';
import { widgetFigure } from './widget-figure.js';

/**
 * Registers the dashboards route; a spec whose entity takes its path is refused here, with the
 * entity's name, rather than by the router.
 *
 * @example registerDashboardRoutes(api, { model, database, now: () => new Date() });
 */
export function registerDashboardRoutes(
  api: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
): void {
  const { model, database, now } = context;
  const taken = Object.values(model.entities).find((e) => e.resource === API_PATHS.dashboards);
  if (taken !== undefined)
    throw new Error(
      `Entity ${taken.name}'s resource "${taken.resource}" is the path of the dashboards API. Rename its resource.`,
    );
  const figures = { model, database, tables: entityTables(model) };
  api.get(
    `${apiPath(model, API_PATHS.dashboards)}/:screen`,
    async (
      request: FastifyRequest<{ Params: { screen: string } }>,
      reply: FastifyReply,
    ): Promise<DashboardFigures> => {
      const user = requireUserContext(request);
      const screen = model.screens.find((s) => s.id === request.params.screen && s.kind === 'dashboard');
      if (screen === undefined || !mayOpenScreen(model, user, screen))
        throw new ApiError('E_NOT_FOUND', { entity: 'dashboard' });
      const viewer = { user, now: now() };
      // the groups' labels in the reader's language (decision 0067)
      const locale = readerLocale(model, request);
      reply.header('content-language', locale);
      const widgets: WidgetFigure[] = [];
      // one query at a time: a dashboard's widgets share the request's connection and clock
      for (const widget of screen.widgets) {
        const figure = await widgetFigure(figures, widget, viewer, locale);
        if (figure !== null) widgets.push(figure);
      }
      return { screen: screen.id, widgets };
    },
  );
}
