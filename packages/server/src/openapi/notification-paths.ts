/**
 * The OpenAPI description of a user's notifications and settings (`notifications/routes.ts`) and of
 * the admins' mail outbox (`mail/outbox-routes.ts`), added to the document by `openApiDocument`.
 */
import { API_PATHS, type Model } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { MAX_MAIL_LISTED } from '../mail/outbox-routes.js';
import { MAX_NOTIFICATIONS_LISTED } from '../notifications/routes.js';

type Json = Record<string, unknown>;

/** What the document lends: its operation builder and its sets of codes. */
export interface DocumentParts {
  readonly op: (codes: readonly string[], extra: Json) => Json;
  /** Codes of any request that needs a session. */
  readonly signedIn: readonly string[];
  /** Codes of any request that changes data. */
  readonly changing: readonly string[];
}

/**
 * The paths and schemas of notifications and the mail outbox.
 *
 * @example const { paths, schemas } = notificationPaths(model, { op, signedIn, changing });
 */
export function notificationPaths(
  model: Model,
  parts: DocumentParts,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn, changing } = parts;
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const list = apiPath(model, API_PATHS.notifications);
  const settings = apiPath(model, API_PATHS.notificationSettings);
  const settingsList = json({ type: 'array', items: ref('ninefold.NotificationSetting') });
  const paths: Record<string, Record<string, Json>> = {};
  paths[list] = {
    get: op([...signedIn, 'E_INVALID_QUERY'], {
      operationId: 'listNotifications',
      tags: ['notifications'],
      summary: 'Your notifications, newest first, with how many of them are unread.',
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: MAX_NOTIFICATIONS_LISTED, default: 20 },
        },
        {
          name: 'before',
          in: 'query',
          required: false,
          description: 'The `next` of the page before: the id of its last notification.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': { description: 'A page of them.', content: json(ref('ninefold.NotificationPage')) },
      },
    }),
  };
  paths[`${list}/read`] = {
    post: op(changing, {
      operationId: 'readAllNotifications',
      tags: ['notifications'],
      summary: 'Marks all your notifications read.',
      parameters: [csrf],
      responses: { '204': { description: 'All read.' } },
    }),
  };
  paths[`${list}/{id}/read`] = {
    post: op([...changing, 'E_NOT_FOUND', 'E_URI_TOO_LONG'], {
      operationId: 'readNotification',
      tags: ['notifications'],
      summary: 'Marks one of your notifications read; someone else’s is E_NOT_FOUND.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, csrf],
      responses: {
        '200': { description: 'The notification, read.', content: json(ref('ninefold.Notification')) },
      },
    }),
  };
  paths[settings] = {
    get: op(signedIn, {
      operationId: 'getNotificationSettings',
      tags: ['notifications'],
      summary: 'Which notifications you get: each of the spec’s, on unless you turned it off.',
      responses: { '200': { description: 'Your settings.', content: settingsList } },
    }),
    put: op([...changing, 'E_UNKNOWN_NOTIFICATION', 'E_MANDATORY_NOTIFICATION'], {
      operationId: 'setNotificationSettings',
      tags: ['notifications'],
      summary: 'Turns notifications on or off; a mandatory one cannot be turned off.',
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'array',
          items: {
            type: 'object',
            required: ['notification', 'enabled'],
            additionalProperties: false,
            properties: { notification: { type: 'string' }, enabled: { type: 'boolean' } },
          },
        }),
      },
      responses: { '200': { description: 'Your settings, changed.', content: settingsList } },
    }),
  };
  paths[apiPath(model, API_PATHS.mailOutbox)] = {
    get: op([...signedIn, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
      operationId: 'listMailOutbox',
      tags: ['mail'],
      summary: 'The mail kept while no SMTP_URL is set, newest first; for admins.',
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: MAX_MAIL_LISTED, default: 100 },
        },
      ],
      responses: {
        '200': {
          description: 'The newest mail.',
          content: json({
            type: 'object',
            required: ['data'],
            properties: { data: { type: 'array', items: ref('ninefold.Mail') } },
          }),
        },
      },
    }),
  };
  return { paths, schemas: schemas() };
}

/** Named `ninefold.…`: an entity's name has no dot, so no entity's schema can take theirs. */
function schemas(): Record<string, Json> {
  const text = { type: 'string' };
  const object = (properties: Record<string, Json>): Json => ({
    type: 'object',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  });
  return {
    'ninefold.Notification': object({
      id: text,
      notification: text,
      entity: text,
      recordId: text,
      subject: text,
      message: text,
      createdAt: { type: 'string', format: 'date-time' },
      readAt: { type: ['string', 'null'], format: 'date-time' },
    }),
    'ninefold.NotificationPage': object({
      items: { type: 'array', items: { $ref: '#/components/schemas/ninefold.Notification' } },
      unread: { type: 'integer', minimum: 0 },
      next: { type: ['string', 'null'], description: 'Pass as `before` for the next page.' },
    }),
    'ninefold.NotificationSetting': object({
      notification: text,
      enabled: { type: 'boolean' },
      mandatory: { type: 'boolean' },
    }),
    'ninefold.Mail': object({
      id: text,
      to: text,
      subject: text,
      text,
      html: text,
      createdAt: { type: 'string', format: 'date-time' },
    }),
  };
}
