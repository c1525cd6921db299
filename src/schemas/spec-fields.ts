// The spec's resource field lists as data (src/schemas/spec-fields.json), so that a test compares
// each with its schema without needing the spec at hand. Extracted from "Resources and their
// fields": the tables of the ### sections (the Field column; "price_max, price_min" names two
// fields, "address (embedded)" one field, address) and their one-paragraph equivalents
// ("Fields: id, user_id (integer); review (string); ...").
//
// `npm run spec-fields [path to catalogue-api-v3.md]` rewrites the data file; by default the spec
// is looked for where CI has it, ../shared/spec/ beside the clone (or CATALOGUE_SPEC).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SPEC_FIELDS_PATH = fileURLToPath(new URL('./spec-fields.json', import.meta.url));
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../../shared/spec/catalogue-api-v3.md', import.meta.url));

export function specPath(): string {
  return process.env['CATALOGUE_SPEC'] ?? DEFAULT_SPEC_PATH;
}

export interface SpecField {
  name: string;
  /** What the spec says of it: the row's other cells, or the parenthesis of a Fields: line. */
  text: string;
}

export interface SpecResource {
  /** The ### heading, e.g. "Shop location". */
  resource: string;
  /** A table (| Field | ...) or a "Fields:" paragraph. */
  source: 'table' | 'fields-line';
  fields: SpecField[];
}

/** Splits on `separator` outside parentheses. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

const NAME = /^([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?$/s;

function tableFields(lines: string[], resource: string): SpecField[] {
  const rows = lines.map((l) => l.trim()).filter((l) => l.startsWith('|'));
  const cells = (row: string) =>
    row
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const header = cells(rows[0]!);
  if (header[0] !== 'Field') throw new Error(`${resource}: a table whose first column is ${header[0]}, not Field`);
  const fields: SpecField[] = [];
  for (const row of rows.slice(2)) {
    const [first = '', ...rest] = cells(row);
    const text = rest.filter(Boolean).join(' | ');
    for (const item of first.split(',').map((s) => s.trim())) {
      const match = NAME.exec(item);
      if (!match) throw new Error(`${resource}: cannot read the field name "${item}"`);
      // "address (embedded)": the parenthesis qualifies the field; keep it with the text.
      fields.push({ name: match[1]!, text: match[2] ? `(${match[2]}) ${text}` : text });
    }
  }
  return fields;
}

function fieldsLine(line: string, resource: string): SpecField[] {
  const body = line.replace(/^Fields:\s*/, '').replace(/\.\s*$/, '');
  const fields: SpecField[] = [];
  for (const segment of splitTop(body, ';')) {
    const items = splitTop(segment, ',').map((item) => {
      const match = NAME.exec(item);
      if (!match) throw new Error(`${resource}: cannot read the field "${item}"`);
      return { name: match[1]!, paren: match[2] };
    });
    // "id, user_id (integer)": a parenthesis applies to the names before it that have none.
    let pending: string[] = [];
    for (const item of items) {
      pending.push(item.name);
      if (item.paren !== undefined) {
        for (const name of pending) fields.push({ name, text: item.paren });
        pending = [];
      }
    }
    for (const name of pending) fields.push({ name, text: '' });
  }
  return fields;
}

/** The field lists of "Resources and their fields", in the spec's order. */
export function extractSpecFields(markdown: string): SpecResource[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Resources and their fields');
  if (start < 0) throw new Error('no "## Resources and their fields" section');
  const endOffset = lines.slice(start + 1).findIndex((l) => /^## /.test(l));
  const section = lines.slice(start + 1, endOffset < 0 ? undefined : start + 1 + endOffset);
  const resources: SpecResource[] = [];
  let heading: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (heading === null) return;
    const table = body.filter((l) => l.trim().startsWith('|'));
    const line = body.find((l) => l.startsWith('Fields:'));
    if (table.length && cellsOf(table[0]!)[0] === 'Field') resources.push({ resource: heading, source: 'table', fields: tableFields(table, heading) });
    else if (line) resources.push({ resource: heading, source: 'fields-line', fields: fieldsLine(line, heading) });
  };
  const cellsOf = (row: string) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  for (const line of section) {
    const h = /^### (.+)$/.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
      body = [];
    } else body.push(line);
  }
  flush();
  return resources;
}

export function specFieldsJson(resources: SpecResource[]): string {
  return `${JSON.stringify(resources, null, 2)}\n`;
}

export function loadSpecFields(): SpecResource[] {
  return JSON.parse(readFileSync(SPEC_FIELDS_PATH, 'utf8')) as SpecResource[];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = resolve(process.argv[2] ?? specPath());
  const resources = extractSpecFields(readFileSync(path, 'utf8'));
  writeFileSync(SPEC_FIELDS_PATH, specFieldsJson(resources));
  process.stdout.write(`wrote ${SPEC_FIELDS_PATH}: ${resources.length} resources from ${path}\n`);
}
