/**
 * The Mantine styles of the page about unspecified facets beyond the shell's (`shell.ts`).
 */
import './controls';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/SimpleGrid.css';
