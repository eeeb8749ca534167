import { Migration } from '@mikro-orm/migrations';

const PUBLIC = (r: string) => `(${r}.status = 4 and not ${r}.disabled_by_user and ${r}.current_version_id is not null)`;

/**
 * Per-term postings with popularity folded in (src/search/postgres.postings.ts): one row per lexeme
 * of each searchable add-on's `search_vector`, with the relevance score a one-word search for that
 * lexeme gives the add-on without the exact-name bonus, computed by the same expression as
 * `scoreSql` (so bit for bit the same float8). The top page of a word is then an index range scan
 * of a few rows of `addon_search_postings_top`, instead of ranking every match's vector.
 *
 * Kept in step by statement triggers on `addons` (insert, update of the text, popularity, promotion
 * or searchability, delete): an add-on's old postings are deleted by their full key (lexeme, score
 * recomputed from the old row, id: one index probe each, no index on the id), its new ones
 * inserted. Lexemes with a quote or a backslash have none (a plain-word search never asks for them;
 * the test is a cheap one: a character-class pattern cost more than the ranking at 500,000 add-ons).
 * `reindex` rebuilds the table (`rebuildPostings`).
 */
export class Migration20261129121000_SearchPostings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "addon_search_postings" (
      "lexeme" text collate "C" not null, "score" float8 not null, "addon_id" int not null);`);
    // The score expression of scoreSql for a row that is not an exact name, with `v` as the query.
    this.addSql(`create or replace function addon_search_postings_of(v tsvector, adu integer, promoted smallint)
      returns table (lexeme text, score float8) language sql immutable parallel safe as $$
        select u.lexeme, ((least(ts_rank('{0.1,0.2,0.4,1}'::float4[], v, quote_literal(u.lexeme)::tsquery) / 0.6079271018533712, 1) + 0)
          * log((adu + 2)::float8) * case when promoted = 2 then 1.25 else 1 end)::float8
        from unnest(v) u where strpos(u.lexeme, '''') = 0 and strpos(u.lexeme, '\\') = 0
      $$;`);
    // The vectors decompressed once per row (\`|| ''\`), not once per lexeme.
    const postings = (rows: string, condition: string) => `
      select s.lexeme, s.score, r.id from (
        select r.id, r.search_vector || ''::tsvector as v, r.average_daily_users as adu, r.promoted_category as promoted
        from ${rows} r where ${condition} offset 0
      ) r, lateral addon_search_postings_of(r.v, r.adu, r.promoted) s`;
    const changed = `(${PUBLIC('o')} is distinct from ${PUBLIC('n')} or o.search_vector is distinct from n.search_vector
      or o.average_daily_users is distinct from n.average_daily_users or o.promoted_category is distinct from n.promoted_category)`;
    this.addSql(`create or replace function addon_search_postings_sync() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from addon_search_postings p using (${postings('old_rows', PUBLIC('r'))}) d(lexeme, score, id)
            where p.lexeme = d.lexeme and p.score = d.score and p.addon_id = d.id;
        elsif tg_op = 'UPDATE' then
          delete from addon_search_postings p using (${postings(
            `(select o.* from old_rows o join new_rows n on n.id = o.id where ${PUBLIC('o')} and ${changed})`,
            'true',
          )}) d(lexeme, score, id)
            where p.lexeme = d.lexeme and p.score = d.score and p.addon_id = d.id;
          insert into addon_search_postings (lexeme, score, addon_id) ${postings(
            `(select n.* from new_rows n join old_rows o on o.id = n.id where ${PUBLIC('n')} and ${changed})`,
            'true',
          )};
        else
          insert into addon_search_postings (lexeme, score, addon_id) ${postings('new_rows', PUBLIC('r'))};
        end if;
        return null;
      end $$;`);
    this.addSql(`insert into addon_search_postings (lexeme, score, addon_id) ${postings('addons', PUBLIC('r'))};`);
    this.addSql(`set local maintenance_work_mem = '256MB';`);
    this.addSql(`create index "addon_search_postings_top" on "addon_search_postings" ("lexeme", "score" desc, "addon_id" desc);`);
    this.addSql(`create trigger "addons_search_postings_insert" after insert on "addons"
      referencing new table as new_rows for each statement execute function addon_search_postings_sync();`);
    this.addSql(`create trigger "addons_search_postings_update" after update on "addons"
      referencing old table as old_rows new table as new_rows for each statement execute function addon_search_postings_sync();`);
    this.addSql(`create trigger "addons_search_postings_delete" after delete on "addons"
      referencing old table as old_rows for each statement execute function addon_search_postings_sync();`);
    this.addSql(`analyze "addon_search_postings";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "addons_search_postings_insert" on "addons";`);
    this.addSql(`drop trigger if exists "addons_search_postings_update" on "addons";`);
    this.addSql(`drop trigger if exists "addons_search_postings_delete" on "addons";`);
    this.addSql(`drop function if exists addon_search_postings_sync();`);
    this.addSql(`drop table if exists "addon_search_postings";`);
    this.addSql(`drop function if exists addon_search_postings_of(tsvector, integer, smallint);`);
  }
}
