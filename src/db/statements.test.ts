import { isMultiStatement } from './statements.js';

describe('isMultiStatement', () => {
  it.each([
    ['select 1', false],
    ['select 1;', false],
    ['select 1;  \n -- done\n', false],
    ["insert into t (a) values ('a;b')", false],
    ["insert into t (a) values ('it''s; fine')", false],
    ["select E'a\\';b'", false],
    ['select "odd;name" from t', false],
    ['select 1 -- a; comment\n', false],
    ['select /* a; /* nested; */ still */ 1', false],
    ['select $$a;b$$, $tag$c;d$tag$', false],
    ['select $1::text', false],
    ['select 1; select 2', true],
    ["update t set a = 'x'; delete from t", true],
    ['BEGIN; SET LOCAL x = 1; COMMIT;', true],
    ["select 'unterminated; select 2", false],
  ])('%s', (sql, expected) => {
    expect(isMultiStatement(sql)).toBe(expected);
  });
});
