// Readers of the shared test vectors in tests/vectors/ (README.md there).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'vectors');

/** Undoes the TSV escapes \\ \t \n \r. */
export function unescapeField(s) {
  return s.replace(/\\(.)/g, (_, c) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? `\\${c}`);
}

/** partition_hash.tsv: [{ type, value, hash, bucket, partitions: {2,3,4,8,12} }]. */
export function partitionHashVectors() {
  return readFileSync(join(VECTORS, 'partition_hash.tsv'), 'utf8').split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [type, value, hash, bucket, ...parts] = l.split('\t');
      const counts = [2, 3, 4, 8, 12];
      return { type, value: type === 'VARCHAR' ? unescapeField(value) : value, hash, bucket: Number(bucket),
        partitions: Object.fromEntries(counts.map((n, i) => [n, Number(parts[i])])) };
    });
}

/**
 * result_tables.tsv: [{ file, bytes, error: boolean, tables: [{ columns: [{type, name}], rows: [[text | null]] }] }];
 * a value is its field text (\N -> null; VARCHAR unescaped).
 */
export function resultTableVectors() {
  const files = [];
  let table;
  for (const line of readFileSync(join(VECTORS, 'result_tables.tsv'), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    switch (f[0]) {
      case 'file':
        files.push({ file: f[1], bytes: readFileSync(join(VECTORS, 'result_tables', f[1])), error: f[2] === 'error',
          tableCount: f[2] === 'error' ? -1 : Number(f[2]), tables: [] });
        break;
      case 'table':
        table = { columnCount: Number(f[1]), rowCount: Number(f[2]), columns: [], rows: [] };
        files.at(-1).tables.push(table);
        break;
      case 'column':
        table.columns.push({ type: f[1], name: unescapeField(f[2]) });
        break;
      case 'row':
        table.rows.push(f.slice(1).map((v, c) => (v === '\\N' ? null
          : table.columns[c].type === 'VARCHAR' ? unescapeField(v) : v)));
        break;
      default:
        throw new Error(`result_tables.tsv: unknown record '${f[0]}'`);
    }
  }
  return files;
}
