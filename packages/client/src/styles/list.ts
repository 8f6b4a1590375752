/**
 * The Mantine styles a list screen uses beyond the shell's (`shell.ts`), in Mantine's order:
 * the table, the filters' inputs and the transition dialog.
 */
import './controls';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxCard.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/EmptyState.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Table.css';
