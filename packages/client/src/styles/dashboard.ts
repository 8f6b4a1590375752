/**
 * The Mantine styles a dashboard screen uses beyond the shell's (`shell.ts`), in Mantine's order:
 * its cards, their grid, the table view and the skeletons shown while the figures load.
 */
import './controls';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Table.css';
