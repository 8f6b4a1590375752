/**
 * Every failure as its catalogue message, rendered from the spec's ICU templates by the engine —
 * the same text the server would have sent. Templates of plain text and `{name}` arguments (most
 * of them) are filled in at once; the ICU compiler for the rest (plurals, number formats) loads in
 * its own chunk after the first paint (`loadMessageFormat`).
 */
import { type MessageCompiler, renderMessage } from '@ninefold/engine/message-text';
import type { ErrorCode, Model, Value } from '@ninefold/model';
import { ApiError, NetworkError, WriteQueued } from '../api/http';
import { onDemand } from './lazy';

const icu = onDemand<MessageCompiler>(() =>
  import('@ninefold/engine/messages').then((module) => module.compileMessage),
);

/**
 * Loads the ICU compiler (once; again after a failure). Until it is here, a template that needs it
 * shows as written: start-up asks for it right after the first render.
 */
export function loadMessageFormat(): Promise<void> {
  return icu.load().then(() => undefined);
}

/** The ICU compiler, once loaded (`loadMessageFormat`); null before. */
export function messageCompiler(): MessageCompiler | null {
  return icu.current();
}

/**
 * The catalogue message of a code.
 *
 * @example message(model, 'E_TOO_SHORT', { field: 'Title', min: 3 })
 */
export function message(
  model: Model,
  code: ErrorCode,
  params: Readonly<Record<string, Value | undefined>> = {},
): string {
  return renderMessage(model, code, params, model.product.locale, icu.current());
}

/** The code and message to show for any thrown value. */
export function describeError(model: Model, error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof ApiError) {
    return { code: error.code, message: error.problem.message || message(model, error.code) };
  }
  if (error instanceof NetworkError || error instanceof WriteQueued) {
    const code =
      error instanceof WriteQueued
        ? 'E_OFFLINE_QUEUED'
        : error.reason === 'timeout'
          ? 'E_TIMEOUT'
          : 'E_NETWORK';
    if (model.errors[code] !== undefined) return { code, message: message(model, code) };
    return { code, message: error.message };
  }
  return { code: 'E_INTERNAL', message: message(model, 'E_INTERNAL') };
}

/** Whether trying again may help: the network, a timeout, or the server being unavailable. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status === 503 || error.status === 502 || error.status === 504);
}
