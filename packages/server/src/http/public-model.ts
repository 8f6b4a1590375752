/**
 * The model as the client receives it from `GET /api/model`.
 */
import { type Model } from '@ninefold/model';

/**
 * The compiled model without what only the server may know. Today every part of the model is for
 * the client too; this is the one place that changes when that stops being true.
 *
 * @example reply.send(publicModel(model));
 */
export function publicModel(model: Model): Model {
  return model;
}
