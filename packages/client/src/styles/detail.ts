/**
 * The Mantine styles a detail screen uses beyond the shell's (`shell.ts`), in Mantine's order:
 * the record's fields, its history, and the dialogs (delete, transitions) with their inputs.
 */
import './controls';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/DataList.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Timeline.css';
