/** A user as the server's authentication and user management see them: who they are, and their roles. */
export interface UserSummary {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly disabled: boolean;
  /** The locale they picked in the app (decision 0067), null until they pick one or where not read. */
  readonly locale?: string | null;
}
