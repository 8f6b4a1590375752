/**
 * `DATABASE_LISTEN_URL` (docs/deploy.md): behind a pooler in transaction mode, which cannot hold a
 * LISTEN, the pool's URL goes through the pooler and the listening connections straight to the
 * primary. On the real PostgreSQL server: queries go where the URL says, LISTEN where the listen
 * URL says; a listen URL that is not PostgreSQL's is refused without repeating its password.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/index.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

describe('the listening connection’s own URL', () => {
  it('refuses a listen URL that is not PostgreSQL’s, without its password', async () => {
    const refused = await openDatabase('postgres://postgres@127.0.0.1:5432/test', {
      listenUrl: 'mysql://ann:s3cret@db.example.com/app',
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toContain('DATABASE_LISTEN_URL');
    expect((refused as Error).message).not.toContain('s3cret');
  });

  if (TEST_DATABASE_URL !== '') {
    it('listens where the listen URL says, and queries where the URL says', async () => {
      // a listen URL nobody answers at: the pool still works, and the listener says it is not listening
      const deaf = await openDatabase(TEST_DATABASE_URL, {
        listenUrl: 'postgres://postgres@127.0.0.1:1/test',
      });
      const heard: (string | null)[] = [];
      const nowhere = deaf.listen!(
        'ninefold_listen_url_test',
        (p) => heard.push(p),
        () => undefined,
      );
      expect(await nowhere.ready).toBe(false);
      expect((await deaf.selectValues('select 1 as one', []))[0]).toEqual([1]);
      await nowhere.close();
      await deaf.close();

      // and the other way round: a URL nobody answers at for queries, the real server for LISTEN
      const listening = await openDatabase('postgres://postgres@127.0.0.1:1/test', {
        listenUrl: TEST_DATABASE_URL,
      });
      const here = listening.listen!(
        'ninefold_listen_url_test',
        (p) => heard.push(p),
        () => undefined,
      );
      expect(await here.ready).toBe(true);
      await here.close();
      await listening.close();
    });
  }
});
