/**
 * Deletes held back for their Undo (decision 0066, update): the server keeps no deleted record, so
 * a delete the user confirmed is held in the browser while its toast offers Undo, the way a mail
 * client holds a message it is told to send, and only sent when that window ends. Undo within it
 * sends nothing. The page left meanwhile (tab closed, reload, another site) sends every held delete
 * at once with `keepalive`; signing out sends them first too. One set per page: `pagehide` is the
 * page's, and a list's read leaves out what is held (`isHeld`).
 */

/** What the holder does with its delete: send it, send it as the page goes, or put it back. */
export interface HeldDelete {
  /** Sends the delete (the window ended, or sign-out): resolves once its outcome is handled. */
  send(): Promise<void>;
  /** Sends it as the page goes: the request must leave now, without waiting for an answer. */
  leave(): void;
  /** Undo: the record shows again where it was hidden. */
  restore(): void;
}

interface Entry {
  readonly held: HeldDelete;
  readonly timer: ReturnType<typeof setTimeout>;
}

const entries = new Map<string, Entry>();
let listening = false;

/** The key of a record's held delete. */
export const heldKey = (entity: string, id: string): string => `${entity}/${id}`;

/** Whether the record's delete is held: it is hidden, though the server still has it. */
export function isHeld(entity: string, id: string): boolean {
  return entries.has(heldKey(entity, id));
}

function take(key: string): HeldDelete | null {
  const entry = entries.get(key);
  if (entry === undefined) return null;
  clearTimeout(entry.timer);
  entries.delete(key);
  return entry.held;
}

/**
 * Holds a delete for `ms`, then sends it.
 *
 * @example hold(heldKey('Claim', id), { send, leave, restore }, UNDO_MS);
 */
export function hold(key: string, held: HeldDelete, ms: number): void {
  void take(key)?.send();
  if (!listening && typeof window !== 'undefined') {
    window.addEventListener('pagehide', leaveAll);
    listening = true;
  }
  const timer = setTimeout(() => void take(key)?.send(), ms);
  entries.set(key, { held, timer });
}

/** Undo: the delete is not sent and its record restored; false when it was sent already. */
export function undo(key: string): boolean {
  const held = take(key);
  held?.restore();
  return held !== null;
}

/** Sends every held delete now (sign-out), resolving once each outcome is handled. */
export async function flushAll(): Promise<void> {
  await Promise.all([...entries.keys()].map((key) => take(key)?.send()));
}

/** The page goes: every held delete leaves now, with `keepalive`. */
export function leaveAll(): void {
  for (const key of [...entries.keys()]) take(key)?.leave();
}
