/** The Mantine styles the two-step sign-in section uses beyond the shell's: passwords, a checkbox, code. */
import './controls';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/List.css';
