/**
 * The engine's decisions that evaluate the model's conditions on a record, and with them its CEL
 * evaluator: loaded apart from the first page, which only needs the grants (see `access.ts`).
 */
export { availableTransitions, can, readableFields, writableFields } from '@ninefold/engine';
