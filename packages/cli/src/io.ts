/** Where a command writes; tests pass buffers, the binary passes the process's streams. */
export interface Io {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Where `ninefold init` reads its answers, when it is a terminal. */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Called by `ninefold start` once the server listens. Whoever passes it (a test, an embedder)
   * owns the server's lifetime: `start` then installs no signal handlers.
   */
  readonly onStarted?: (server: { readonly url: string; close(): Promise<void> }) => void;
}

/** Exit codes, as documented in `ninefold help`. */
export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

/** ANSI styles, or identity functions when colour is off (not a terminal, or NO_COLOR set). */
export function palette(stream: Io['stdout'], env: Io['env'] = {}) {
  const on = stream.isTTY === true && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb';
  const style = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return {
    red: style(31),
    yellow: style(33),
    green: style(32),
    cyan: style(36),
    dim: style(2),
    bold: style(1),
  };
}
