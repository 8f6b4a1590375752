/**
 * The OpenAPI description of a dashboard's figures (`dashboards/routes.ts`, decision 0046), added to
 * the document by `openApiDocument`: one operation, `GET <basePath>/dashboards/{screen}`, whose
 * `screen` is one of the model's dashboard screens.
 */
import { API_PATHS, type Model } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { type DocumentParts } from './notification-paths.js';

type Json = Record<string, unknown>;

const object = (properties: Record<string, Json>, description?: string): Json => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  ...(description === undefined ? {} : { description }),
  properties,
});

const figureValue: Json = {
  type: ['integer', 'number', 'string', 'null'],
  description:
    'A count (a number); a sum, minimum or maximum of an integer (a number) or of a decimal or money field (an exact decimal string); an average (a decimal string); null over no rows.',
};

/**
 * The path and schemas of the dashboards.
 *
 * @example const { paths, schemas } = dashboardPaths(model, { op, signedIn, changing });
 */
export function dashboardPaths(
  model: Model,
  parts: DocumentParts,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn } = parts;
  const dashboards = model.screens.filter((s) => s.kind === 'dashboard').map((s) => s.id);
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const paths: Record<string, Record<string, Json>> = {};
  paths[`${apiPath(model, API_PATHS.dashboards)}/{screen}`] = {
    get: op([...signedIn, 'E_NOT_FOUND', 'E_URI_TOO_LONG'], {
      operationId: 'dashboardFigures',
      tags: ['dashboards'],
      summary:
        'The figures of a dashboard screen over the records you may read; a widget you may not see is left out. A screen you may not open is E_NOT_FOUND.',
      parameters: [
        {
          name: 'screen',
          in: 'path',
          required: true,
          schema: dashboards.length === 0 ? { type: 'string' } : { type: 'string', enum: dashboards },
        },
      ],
      responses: {
        '200': {
          description: 'Every widget you may see, in the screen’s order.',
          content: { 'application/json': { schema: ref('ninefold.DashboardFigures') } },
        },
      },
    }),
  };
  const schemas: Record<string, Json> = {
    'ninefold.FigureGroup': object({
      key: {
        type: ['string', 'boolean', 'null'],
        description:
          'An enum value, a state, a ref’s id, a boolean, a date bucket’s first day; null for no value.',
      },
      label: { type: 'string' },
      value: figureValue,
    }),
    'ninefold.WidgetFigure': object({
      id: { type: 'string' },
      value: figureValue,
      groups: {
        type: ['array', 'null'],
        items: ref('ninefold.FigureGroup'),
        description: 'The groups of a widget with `by`, in the field’s order; null for a whole figure.',
      },
    }),
    'ninefold.DashboardFigures': object({
      screen: { type: 'string' },
      widgets: { type: 'array', items: ref('ninefold.WidgetFigure') },
    }),
  };
  return { paths, schemas };
}
