import type { User } from '@sweatpants/domain';

/** Who a verified token speaks for: PROTOCOL.md's user, its role derived from ADMIN_EMAILS. */
export type AuthUser = User;
