import { check } from './check.js';
import { type Io } from '../io.js';

export const START_HELP = `Usage: ninefold start [spec…]

Checks the specs (by default the examples) and prints their report. Serving the product a spec
describes comes with the server (packages/server); until then \`start\` is the report.
`;

/** `ninefold start`: for now, the report of the examples, which is what `npm start` shows. */
export function start(args: readonly string[], io: Io): number {
  const specs = args.filter((a) => !a.startsWith('-'));
  io.stdout.write('Ninefold: checking the specs; the server that runs them is not built yet.\n\n');
  return check(specs.length > 0 ? specs : ['examples'], io);
}
