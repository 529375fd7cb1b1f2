// Result-table decoding against the shared golden vectors (tests/vectors/result_tables.tsv),
// plus the decoder's own checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolError, ResultTable, Timestamp, formatDecimal } from '@partita/client';
import { resultTableVectors } from './vectors.mjs';

function checkValue(where, type, text, v) {
  if (text === null) {
    assert.equal(v, null, `${where} should be NULL`);
    return;
  }
  switch (type) {
    case 'TINYINT': case 'SMALLINT': case 'INTEGER':
      assert.equal(v, Number(text), where); break;
    case 'BIGINT': assert.equal(v, BigInt(text), where); break;
    case 'BOOLEAN': assert.equal(v, text === 'true', where); break;
    case 'FLOAT': assert.ok(Object.is(v, Number(text)), `${where}: ${v} vs ${text}`); break;
    case 'DECIMAL': assert.equal(v, text, where); break;
    case 'VARCHAR': assert.equal(v, text, where); break;
    case 'VARBINARY': assert.equal(Buffer.from(v).toString('hex'), text, where); break;
    case 'TIMESTAMP': {
      assert.ok(v instanceof Timestamp && v instanceof Date, `${where} is a Timestamp`);
      const micros = BigInt(text);
      assert.equal(v.micros, micros, where);
      const floorMs = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n);
      assert.equal(v.getTime(), Number(floorMs), `${where} as a Date`);
      break;
    }
    default: assert.fail(`${where}: unknown type ${type}`);
  }
}

test('every good vector decodes to its expected tables, columns and values', () => {
  let files = 0;
  let values = 0;
  for (const e of resultTableVectors().filter((x) => !x.error)) {
    files++;
    const tables = ResultTable.readResultSet(e.bytes);
    assert.equal(tables.length, e.tableCount, e.file);
    tables.forEach((t, i) => {
      const x = e.tables[i];
      const where = `${e.file} table ${i}`;
      assert.deepEqual(t.columns.map((c) => [c.type, c.name]), x.columns.map((c) => [c.type, c.name]), where);
      assert.equal(t.rowCount, x.rowCount, where);
      for (let r = 0; r < x.rowCount; r++) {
        const row = t.row(r);
        for (let c = 0; c < x.columns.length; c++, values++) {
          const at = `${where} row ${r} column ${c}`;
          checkValue(at, x.columns[c].type, x.rows[r][c], row[c]);
          checkValue(`${at} (get)`, x.columns[c].type, x.rows[r][c], t.get(r, c));
        }
        assert.deepEqual(Object.keys(t.rows[r]), x.columns.map((c) => c.name), where);
      }
    });
  }
  assert.ok(files >= 9, `good vectors read: ${files}`);
  assert.ok(values > 100, `values checked: ${values}`);
});

test('every malformed vector is refused with a ProtocolError naming the offset', () => {
  const bad = resultTableVectors().filter((x) => x.error);
  assert.ok(bad.length >= 4);
  for (const e of bad) {
    assert.throws(() => ResultTable.readResultSet(e.bytes), (err) => err instanceof ProtocolError && /at byte \d+/.test(err.message), e.file);
  }
});

test('a table that does not fill its bytes exactly is refused', () => {
  const [first] = resultTableVectors().filter((x) => x.file === 'all_types.bin');
  const table = first.bytes.subarray(4);
  assert.equal(ResultTable.parse(table).rowCount, 5);
  assert.throws(() => ResultTable.parse(Buffer.concat([table, Buffer.from([0])])), ProtocolError);
  assert.throws(() => ResultTable.parse(table.subarray(0, 3)), /truncated table_size/);
});

test('reading outside the table is a RangeError, by index or name', () => {
  const [e] = resultTableVectors().filter((x) => x.file === 'all_types.bin');
  const [t] = ResultTable.readResultSet(e.bytes);
  assert.throws(() => t.get(5, 0), RangeError);
  assert.throws(() => t.get(0, 10), RangeError);
  assert.throws(() => t.get(0, 'NOPE'), RangeError);
  assert.equal(t.get(0, 'big'), 4n);
});

test('DECIMAL text drops trailing zeros and keeps the sign of fractions', () => {
  assert.equal(formatDecimal(-12_500_000_000_000n), '-12.5');
  assert.equal(formatDecimal(-1n), '-0.000000000001');
  assert.equal(formatDecimal(3_000_000_000_000n), '3');
  assert.equal(formatDecimal(0n), '0');
});
