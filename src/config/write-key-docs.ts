// `npm run key-docs`: writes .env.example and README's key table from the key table (./keys.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { envExample, readmeWithKeyTable } from './key-docs.ts';

const at = (file: string): string => fileURLToPath(new URL(`../../${file}`, import.meta.url));
writeFileSync(at('.env.example'), envExample());
writeFileSync(at('README.md'), readmeWithKeyTable(readFileSync(at('README.md'), 'utf8')));
console.log('wrote .env.example and the key table of README.md');
