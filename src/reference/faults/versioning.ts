// Faults of version negotiation (rules 1-5) and the fields of each version (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const VERSIONING_FAULTS = {
  'version-unspecified-gives-oldest': {
    requirement: 'VER-7',
    description:
      'The media type without a version parameter (Accept: application/vnd.service+json) is served the oldest version, as if only the major had been given, instead of the latest.',
  },
  'family-id-missing-in-3-1': {
    requirement: 'CHG-4',
    description: 'Single categories lack family_id, which came with 3.1.2, in answers to 3.1 requests: the field-version table dates it 3.2.0.',
  },
} satisfies Record<string, FaultInfo>;
