/**
 * The Mantine styles of the first page — the shell, the status pages and error panels —
 * instead of the whole of `@mantine/core/styles.css`: the global styles, then each component's own
 * file in the order Mantine's full sheet has them (a component after those it is built on). Each
 * lazy screen adds what it uses beyond these (`controls.ts` for inputs, surfaces and popovers, then
 * the other modules of this folder).
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
