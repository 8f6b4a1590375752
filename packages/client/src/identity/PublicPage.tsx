/**
 * The app's own pages before signing in, beside the sign-in page: sign-up, the forgotten password
 * and the one-time link. One chunk for the three (a visitor opening one usually goes on to
 * another), loaded only when one is opened; the strength meter's estimator is a chunk of its own.
 */
import ForgotPasswordPage from './ForgotPasswordPage';
import LinkPage from './LinkPage';
import SignUpPage from './SignUpPage';

const PAGES = {
  signUp: SignUpPage,
  forgotPassword: ForgotPasswordPage,
  link: LinkPage,
} as const;

/** The name of one of the app's own pages before signing in. */
export type PublicPageName = keyof typeof PAGES;

export default function PublicPage({ page }: { page: PublicPageName }) {
  const Page = PAGES[page];
  return <Page />;
}
