import { backup, BACKUP_HELP } from './commands/backup.js';
import { check, CHECK_HELP } from './commands/check.js';
import { init, INIT_HELP } from './commands/init.js';
import { migrateCommand, MIGRATE_HELP } from './commands/migrate.js';
import { restore, RESTORE_HELP } from './commands/restore.js';
import { start, START_HELP } from './commands/start.js';
import { users, USERS_HELP } from './commands/users.js';
import { worker, WORKER_HELP } from './commands/worker.js';
import { EXIT, type Io } from './io.js';

const HELP = `Ninefold reads a nine-section product spec and runs the product it describes.

Usage: ninefold <command> [options]

Commands:
  init [dir|file]        write a starter spec from a template (--template, --name)
  check <file|folder>…   compile specs and report diagnostics and unspecified facets
  start <spec>           migrate the database (when alone) and serve the product's API
  migrate <spec>         print the plan to the spec's schema; --apply applies it (pre-deploy)
  users <action>         add, invite, list, set-roles, disable, reset-password
  worker <spec>          run the product's jobs beside the servers (PostgreSQL)
  backup <spec>          write one archive of the database and the files (--out)
  restore <archive>      put a backup archive back into an empty data folder
  help [command]         show help

Run \`ninefold help <command>\` for a command's options.
`;

type Command = (args: readonly string[], io: Io) => number | Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  init: { run: init, help: INIT_HELP },
  check: { run: check, help: CHECK_HELP },
  start: { run: start, help: START_HELP },
  migrate: { run: migrateCommand, help: MIGRATE_HELP },
  users: { run: users, help: USERS_HELP },
  worker: { run: worker, help: WORKER_HELP },
  backup: { run: backup, help: BACKUP_HELP },
  restore: { run: restore, help: RESTORE_HELP },
};

/** The `ninefold` command line; returns the exit status. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? args[0] : undefined;
    io.stdout.write(topic !== undefined && COMMANDS[topic] ? COMMANDS[topic].help : HELP);
    return EXIT.ok;
  }
  const entry = COMMANDS[command];
  if (entry === undefined) {
    io.stderr.write(`Unknown command \`${command}\`.\n\n${HELP}`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(entry.help);
    return EXIT.ok;
  }
  return entry.run(args, { ...io, env: io.env ?? process.env });
}
