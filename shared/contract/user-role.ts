/**
 * What a merchant user may do (docs/dashboard.md "Roles"), declared apart from extensions.ts so the
 * dashboard's team module (dashboard-team.ts), which extensions.ts itself imports, can use it too.
 */
import type { EnumValue } from './enum-values.ts';
import { enumeration } from './model.ts';

export const UserRole = enumeration('UserRole', ['Owner', 'Admin', 'Staff', 'Viewer']);
export type UserRole = EnumValue<typeof UserRole>;
