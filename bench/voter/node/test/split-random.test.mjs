// SplitRandom and VoteGenerator against the values java.util.SplittableRandom
// and the Java driver give for the same seed (the C++ tests hold the same numbers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SplitRandom } from '../split-random.mjs';
import { VoteGenerator } from '../vote-generator.mjs';

test('draws the same longs, bounded ints, doubles and booleans as Java', () => {
  const r = new SplitRandom(42n);
  assert.equal(r.nextLong(), -4767286540954276203n);
  assert.equal(r.nextLong(), 2949826092126892291n);
  assert.deepEqual([264, 100, 10_000_000, 256, 7].map((b) => r.nextInt(b)), [9, 72, 6986781, 79, 3]);
  assert.equal(r.nextDouble(), 0.8006318767135033);
  assert.equal(r.nextBoolean(), true);
  assert.equal(r.nextBoolean(), true);
  const s = r.split();
  assert.equal(s.nextLong(), 1881317480488503234n);
  assert.equal(s.nextInt(1000), 209);
  assert.equal(r.nextLong(), -8976257307478440218n);
});

test('stays within bounds for powers of two and others', () => {
  const r = new SplitRandom(1n);
  for (let i = 0; i < 10_000; i++) {
    const a = r.nextInt(1024), b = r.nextInt(1_000_000_007), d = r.nextDouble();
    assert.ok(a >= 0 && a < 1024 && b >= 0 && b < 1_000_000_007 && d >= 0 && d < 1, `${a} ${b} ${d}`);
  }
});

test('draws the same calls as the Java and C++ drivers', () => {
  const g = new VoteGenerator(6, new SplitRandom(42n));
  const expected = [[5624697556, 2], [2074364071, 1], [6192818706, 6], [3300603846, 1], [2240713248, 2], [8435265886, 3]];
  for (const [phone, contestant] of expected) {
    g.next();
    assert.equal(g.phone, phone);
    assert.equal(g.contestant, contestant);
  }
  const s = g.split();
  s.next();
  assert.deepEqual([s.phone, s.contestant], [6077816417, 4]);
});

test('gives area codes the Java favourites and weighs contestants by 1/k', () => {
  const g = new VoteGenerator(6, new SplitRandom(1n));
  assert.deepEqual([...Array(12).keys()].map((i) => g.favourite(i)), [1, 3, 1, 5, 2, 1, 3, 1, 6, 2, 1, 4]);
  const sum = 1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5 + 1 / 6;
  assert.ok(Math.abs(g.weight(1) - 1 / sum) < 1e-12);
  assert.ok(Math.abs(g.weight(6) - 1 / 6 / sum) < 1e-12);
  const one = new VoteGenerator(1, new SplitRandom(3n));
  for (let i = 0; i < 1000; i++) {
    one.next();
    assert.ok(one.contestant === 1 || one.contestant === 2);
  }
});
