/** The Mantine styles the sign-in page uses beyond the shell's (`shell.ts`): the password input. */
import './controls';
import '@mantine/core/styles/PasswordInput.css';
