/**
 * The app's own signed-in pages, whatever the spec: the admin area (jobs, webhook deliveries, mail
 * outbox, invitations, audit trail), the account (profile, password, sessions, API tokens) and the
 * notification settings. One chunk for all of them, loaded when one is opened: one
 * entry in the first page's list of chunks to load later, not one per page.
 */
import DeliveriesPage from '../admin/DeliveriesPage';
import JobsPage from '../admin/JobsPage';
import MailPage from '../admin/MailPage';
import AccountPage from '../identity/AccountPage';
import AuditPage from '../identity/AuditPage';
import InvitationsPage from '../identity/InvitationsPage';
import TokensPage from '../identity/TokensPage';
import NotificationSettingsPage from '../notifications/NotificationSettingsPage';
import TwoStepPage from '../account/TwoStepPage';

const PAGES = {
  jobs: JobsPage,
  webhooks: DeliveriesPage,
  mail: MailPage,
  notificationSettings: NotificationSettingsPage,
  twoStep: TwoStepPage,
  invitations: InvitationsPage,
  audit: AuditPage,
  account: AccountPage,
  tokens: TokensPage,
} as const;

/** The name of one of the app's own signed-in pages. */
export type OwnPageName = keyof typeof PAGES;

export default function OwnPage({ page }: { page: OwnPageName }) {
  const Page = PAGES[page];
  return <Page />;
}
