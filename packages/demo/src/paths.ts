/**
 * Paths through a state machine: the transitions people fire from one state to another. The demo
 * data moves its records along them, and so does the filling of empty queues.
 */
import { type Model, type Transition } from '@ninefold/model';

/** The transitions people fire along a shortest path from one state to another (breadth-first), or null. */
export function pathTo(model: Model, entity: string, from: string, to: string): Transition[] | null {
  const machine = model.states[entity]!;
  const queue: { state: string; path: Transition[] }[] = [{ state: from, path: [] }];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const { state, path } = queue.shift()!;
    if (state === to) return path;
    for (const t of Object.values(machine.transitions)) {
      // a timed transition is the system's: no one steps along it
      if (t.timer !== null || !t.from.includes(state) || seen.has(t.to)) continue;
      seen.add(t.to);
      queue.push({ state: t.to, path: [...path, t] });
    }
  }
  return null;
}
