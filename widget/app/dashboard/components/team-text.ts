/** The roles and texts that the team's user list and its invitations (./team-invitations.tsx) share. */
import type { UserRole } from '../api-types.ts';
import type { useI18n } from '../i18n/context.ts';
import type { MessageKey } from '../i18n/en.ts';

/** The roles in the order the role selects offer them. */
export const ROLES: readonly UserRole[] = ['Owner', 'Admin', 'Staff', 'Viewer'];
const ROLE_KEY: Record<UserRole, MessageKey> = {
  Owner: 'roleOwner',
  Admin: 'roleAdmin',
  Staff: 'roleStaff',
  Viewer: 'roleViewer',
};

type T = ReturnType<typeof useI18n>['t'];
export const roleLabel = (t: T, role: UserRole) => t(ROLE_KEY[role]);

/** The text of a failed change: the server's own reason, or that the outcome is unknown. */
export function refusal(
  t: T,
  res: { kind: 'network' } | { kind: 'http'; error: { message: string } },
): string {
  return res.kind === 'http' ? t('actionRefused', { message: res.error.message }) : t('outcomeUnknown');
}
