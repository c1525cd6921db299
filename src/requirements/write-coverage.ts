// npm run coverage: writes docs/requirement-coverage.md (per requirement, the tests citing it).
import { writeFileSync } from 'node:fs';
import { collectDeclaredTests, COVERAGE_DOC, coverageDocument } from './coverage.ts';

const tests = await collectDeclaredTests();
writeFileSync(COVERAGE_DOC, coverageDocument(tests));
process.stdout.write(`wrote ${COVERAGE_DOC} (${tests.length} tests)\n`);
