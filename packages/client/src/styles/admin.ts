/**
 * The Mantine styles the admin area and the notification settings use beyond the shell's, in
 * Mantine's order: tables, the state filter, switches, and the dialog that shows a mail.
 */
import './controls';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Table.css';
