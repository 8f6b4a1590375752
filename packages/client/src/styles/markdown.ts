/**
 * The Mantine styles of the spec's prose beyond the shell's (`shell.ts`), in Mantine's order:
 * quotes, code, lists and tables (help, and page screens).
 */
import '@mantine/core/styles/Blockquote.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Table.css';
