/**
 * Who may learn of a change (decision 0056): the viewers who may read the record now, decided by
 * the machinery the record's own GET uses (`resources/`: the roles' read access, the read
 * condition over the record), on the instance that holds the streams. A deleted record is decided
 * over the values it had (kept in the log, never sent). The record is read once per event whatever
 * the number of viewers, and each distinct user context is decided once: a hundred streams of the
 * same few users cost one read and a few CEL evaluations per event, not a hundred queries.
 */
import { type UserContext } from '@ninefold/engine';
import { type Value } from '@ninefold/model';
import { activation, mayRead } from '../resources/caller.js';
import { entityReaders } from '../resources/entity-readers.js';
import { type ResourceContext } from '../resources/resource.js';
import { type LoggedEvent } from './log.js';

/** How the hub decides which viewers an event goes to. */
export interface EventAccess {
  /** The viewers among `viewers` who may read the event's record. */
  readersOf(event: LoggedEvent, viewers: Iterable<UserContext>): Promise<Set<UserContext>>;
}

/**
 * The read access of a model's records, for the events stream.
 *
 * @example const readers = await eventAccess(context).readersOf(event, streams.map((s) => s.user));
 */
export function eventAccess(context: ResourceContext): EventAccess {
  const holderOf = entityReaders(context);
  return {
    async readersOf(event, viewers) {
      const readers = new Set<UserContext>();
      // an entity the spec no longer has (an older instance wrote it) is no one's to read
      const holder = holderOf(event.entity);
      if (holder === null) return readers;
      const record =
        event.kind === 'deleted'
          ? (event.lastValues as Record<string, Value> | null)
          : await holder.reader.byId(event.recordId);
      // deleted since: its own `deleted` event follows, decided over its last values
      if (record === null) return readers;
      const decided = new Map<UserContext, boolean>();
      for (const user of viewers) {
        let may = decided.get(user);
        if (may === undefined) {
          const caller = holder.callers.ofUser(user);
          may = mayRead(holder.resource, record, caller, activation(holder.resource, record, caller));
          decided.set(user, may);
        }
        if (may) readers.add(user);
      }
      return readers;
    },
  };
}
