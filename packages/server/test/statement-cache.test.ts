import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements } from '../src/db/statement-cache.js';

function database() {
  const sqlite = new Database(':memory:');
  sqlite.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3);');
  return cachingStatements(sqlite, 2);
}

describe('the prepared-statement cache', () => {
  it('prepares a statement once per SQL text', () => {
    const db = database();
    const first = db.prepare('SELECT n FROM t WHERE n = ?');
    expect(db.prepare('SELECT n FROM t WHERE n = ?')).toBe(first);
    expect(db.prepare('SELECT n FROM t')).not.toBe(first);
    db.close();
  });

  it('never shares a statement that is still being iterated', () => {
    const db = database();
    const statement = db.prepare('SELECT n FROM t');
    const rows = (statement as unknown as { iterate(): IterableIterator<{ n: number }> }).iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const other = db.prepare('SELECT n FROM t');
    expect(other).not.toBe(statement);
    expect((other as unknown as { all(): unknown[] }).all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
    db.close();
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const db = database();
    const a = db.prepare('SELECT 1');
    const b = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(a); // now b is the least recently used
    db.prepare('SELECT 3');
    expect(db.prepare('SELECT 1')).toBe(a);
    expect(db.prepare('SELECT 2')).not.toBe(b);
    db.close();
  });

  it('keeps the order when the same statement is asked for again and again', () => {
    const db = database();
    const a = db.prepare('SELECT 1');
    const b = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 2')).toBe(b);
    expect(db.prepare('SELECT 2')).toBe(b);
    expect(db.prepare('SELECT 1')).toBe(a); // now b is the least recently used
    db.prepare('SELECT 3');
    expect(db.prepare('SELECT 1')).toBe(a);
    expect(db.prepare('SELECT 2')).not.toBe(b);
    db.close();
  });
});
