/**
 * The Mantine styles a form screen uses beyond the shell's (`shell.ts`), in Mantine's order:
 * the field inputs and the dialog that confirms leaving unsaved changes.
 */
import './controls';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/Switch.css';
