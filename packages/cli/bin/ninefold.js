#!/usr/bin/env node
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // only init reads answers; touching process.stdin elsewhere could hold a terminal open
  ...(process.argv[2] === 'init' ? { stdin: process.stdin } : {}),
  cwd: process.cwd(),
});
