// Faults of ETag and conditional requests, rate-limit headers and enforcement (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const CACHING_FAULTS = {
  'etag-from-request-target': {
    requirement: 'ERR-3',
    clause: 'ERR-3#1',
    description:
      'The ETag is computed from the request target (a cache key) instead of the representation, so a changed resource keeps its ETag and If-None-Match with the old one gets 304 Not Modified.',
  },
  'category-etag-ignores-query': {
    requirement: 'ERR-3',
    clause: 'ERR-3#1',
    description: "A single category is tagged by its path alone (the record, not the representation): with fields[root], If-None-Match with the full answer's ETag gets 304.",
  },
  'ratelimit-status-429': {
    requirement: 'RATE-8',
    clause: 'RATE-8#1',
    // The rate-limit row of the errors table (ERR-7: 403 {message}).
    consequences: ['ERR-7'],
    description: 'A request over the per-minute limit gets 429 Too Many Requests instead of 403.',
  },
  'daily-limit-not-enforced': {
    requirement: 'RATE-3',
    clause: 'RATE-3#3',
    // The same rule in States and transitions (RATE-1: all tokens expired, no new ones until the next day).
    consequences: ['RATE-1'],
    description: "The client's calls are counted against the daily limit, but it is never applied: past it, its tokens keep working and new ones are issued.",
  },
  'ratelimit-not-enforced': {
    requirement: 'RATE-2',
    clause: 'RATE-2#1',
    // Over the limit the answer is 403 with a message (RATE-8.a): it is 200.
    consequences: ['RATE-8'],
    description: 'The per-minute limit is counted and shown in the headers but never enforced: requests over it are served.',
  },
  'ratelimit-403-without-message': {
    requirement: 'ERR-7',
    clause: 'ERR-7#2',
    // The 403 comes without the message body the Limits rule names too (RATE-8.a).
    consequences: ['RATE-8'],
    description: 'A request over the per-minute limit gets 403 with an empty object, without the {message} the spec gives.',
  },
} satisfies Record<string, FaultInfo>;
