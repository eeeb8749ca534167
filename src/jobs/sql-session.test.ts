import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { pgPoolSource } from './sql-session.js';

/**
 * The job queue's own pool on PostgreSQL (issue 23, item 10): a session the server ends while the
 * queue holds it between two statements (a database restart) must fail its next statement, not
 * emit an unhandled 'error' that ends the process. PostgreSQL only (DATABASE_URL).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('pgPoolSource', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('survives a session the server terminates between two statements, and discards it', async () => {
    const url = (database.target as { url: string }).url;
    const reported: Error[] = [];
    const source = pgPoolSource(url, 2, (error) => reported.push(error));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const second = await source
        .withSession(async (session) => {
          const { rows } = await session.run('select pg_backend_pid() as pid');
          // Another session ends this one (as a restart does) while no statement of it is running.
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          await new Promise((r) => setTimeout(r, 300));
          return session.run('select 1');
        })
        .then(
          () => 'answered',
          (error: Error) => error.message,
        );
      expect(second).toMatch(/terminat|Connection/i);
      expect(reported.some((e) => /terminating connection/.test(e.message))).toBe(true);
      // The pool goes on with a new session.
      const { rows } = await source.withSession((session) => session.run('select 2 as two'));
      expect(rows).toEqual([{ two: 2 }]);
    } finally {
      await admin.end();
      await source.close();
    }
  });
});
