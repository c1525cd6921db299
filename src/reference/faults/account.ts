// Faults of user, profile, avatars, addresses, saved orders, personalization, logout, notifications (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const ACCOUNT_FAULTS = {} satisfies Record<string, FaultInfo>;
