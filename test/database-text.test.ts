import { User } from '../src/accounts/user.entity.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { databaseSchema } from '../src/modules.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase(database.target, databaseSchema);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('user text in SQL', () => {
  it('round-trips semicolons, quotes and dollar signs through entity inserts and updates', async () => {
    const text = "a; b'; select 1; -- c /* d */ $$e$$ \\ ?";
    const em = db.fork();
    const user = em.create(User, { username: 'semi', email: 'semi@example.com', biography: text });
    await em.flush();
    expect(user.id).toEqual(expect.any(Number));
    user.displayName = 'x;y';
    await em.flush();
    const read = await db.fork().findOneOrFail(User, user.id);
    expect([read.biography, read.displayName]).toEqual([text, 'x;y']);
  });
});
