/**
 * How `ninefold start` writes its log (decision 0062): for a person at a terminal, one short line
 * per request or event (`14:02:11 INFO  GET /api/claims 200 4ms`); for a machine (stdout piped to
 * a file or a collector, or `--log json`), pino's JSON, a document per line. pino-pretty is not
 * installed, so the human form is this small formatter over pino's own JSON lines.
 */
import { type palette } from './io.js';

export type LogFormat = 'pretty' | 'json';

/**
 * The log's form: the flag when given (`--log pretty|json`), else pretty on a terminal and JSON
 * when stdout is not one. Null for a flag it does not know.
 *
 * @example chooseLogFormat(true, undefined) // 'pretty'
 * @example chooseLogFormat(false, undefined) // 'json'
 * @example chooseLogFormat(true, 'json') // 'json'
 */
export function chooseLogFormat(isTTY: boolean | undefined, flag: string | undefined): LogFormat | null {
  if (flag === undefined) return isTTY === true ? 'pretty' : 'json';
  return flag === 'pretty' || flag === 'json' ? flag : null;
}

type Palette = ReturnType<typeof palette>;

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** What pino writes on every line and a person does not need to read. */
const QUIET_FIELDS = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'req',
  'res',
  'err',
  'correlationId',
  'responseTime',
]);

/** The longest a field's value is shown before it is cut with an ellipsis. */
const MAX_FIELD = 60;

/**
 * A pino destination (it receives one JSON line per `write`) that writes each as one readable line.
 * A request is one line, written when it completes: its method and address are kept from its
 * "incoming request" line, which is not written itself.
 */
export function prettyLogStream(write: (text: string) => void, c: Palette): { write(line: string): void } {
  const requests = new Map<string, string>();
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        write(line.endsWith('\n') ? line : `${line}\n`);
        return;
      }
      const id = typeof entry['correlationId'] === 'string' ? entry['correlationId'] : undefined;
      const req = entry['req'] as { method?: string; url?: string } | undefined;
      if (entry['msg'] === 'incoming request' && id !== undefined && req !== undefined) {
        requests.set(id, `${req.method ?? ''} ${req.url ?? ''}`);
        return;
      }
      const res = entry['res'] as { statusCode?: number } | undefined;
      let message = String(entry['msg'] ?? '');
      if (entry['msg'] === 'request completed' && id !== undefined) {
        const status = res?.statusCode ?? 0;
        const ms = typeof entry['responseTime'] === 'number' ? ` ${Math.round(entry['responseTime'])}ms` : '';
        const colour = status >= 500 ? c.red : status >= 400 ? c.yellow : (text: string) => text;
        message = `${requests.get(id) ?? 'request'} ${colour(String(status))}${c.dim(ms)}`;
        requests.delete(id);
      } else if (id !== undefined && requests.has(id)) {
        message = `${message} ${c.dim(`(${requests.get(id)!})`)}`;
      }
      write(`${formatLine(entry, message, c)}\n`);
    },
  };
}

function formatLine(entry: Record<string, unknown>, message: string, c: Palette): string {
  const level = LEVELS[Number(entry['level'])] ?? 'INFO';
  const colour = level === 'ERROR' || level === 'FATAL' ? c.red : level === 'WARN' ? c.yellow : c.dim;
  const time = typeof entry['time'] === 'number' ? new Date(entry['time']).toTimeString().slice(0, 8) : '';
  const err = entry['err'] as { message?: string } | undefined;
  const fields = Object.entries(entry)
    .filter(([key]) => !QUIET_FIELDS.has(key))
    .map(([key, value]) => `${key}=${short(value)}`);
  if (err?.message !== undefined) fields.unshift(`error=${short(err.message)}`);
  const tail = fields.length > 0 ? `  ${c.dim(fields.join(' '))}` : '';
  return `${c.dim(time)} ${colour(level.padEnd(5))} ${message}${tail}`;
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD - 1)}…` : text;
}
