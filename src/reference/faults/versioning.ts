// Faults of version negotiation (rules 1-5) and the fields of each version (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const VERSIONING_FAULTS = {
  'version-unspecified-gives-oldest': {
    requirement: 'VER-7',
    clause: 'VER-7#1',
    // The latest version's answers carry the fields every later row added (CHG-5 3.1.1, CHG-4 3.1.2, CHG-2 3.2.0, CHG-1 3.2.1): served 3.0, they lack them.
    consequences: ['CHG-5', 'CHG-4', 'CHG-2', 'CHG-1'],
    description:
      'The media type without a version parameter (Accept: application/vnd.service+json) is served the oldest version, as if only the major had been given, instead of the latest.',
  },
  'family-id-missing-in-3-1': {
    requirement: 'CHG-4',
    clause: 'CHG-4#1',
    // What version=3.1 returns is not the 3.1 series with its latest fixes (VER-9.a), as user-email-missing-in-3-2 is not 3.2's User.
    consequences: ['VER-9'],
    description: 'Single categories lack family_id, which came with 3.1.2, in answers to 3.1 requests: the field-version table dates it 3.2.0.',
  },
} satisfies Record<string, FaultInfo>;
