import { Migration } from '@mikro-orm/migrations';

/**
 * Text tags narrower than `l:text`: when a public add-on's search text changes (`search_vector`:
 * name, summary, tags, description), `x:<first two characters>` is bumped for every lexeme of the
 * old and the new text, and when its name changes, for every word of the old and the new name
 * (an exact name match also finds a name of stop words, which has no lexemes). A search whose words are plain (ASCII letters and digits, two or more
 * characters each) depends on the tags of its words' first two characters only: every lexeme it
 * can match (its words' stems, and the typo variants of `src/search/typos.ts`, which keep the first
 * two characters) starts with one of them. Other searches keep depending on `l:text`, which the
 * CacheTags triggers still bump (src/search/search.cache-tags.ts decides which is which).
 *
 * A trigger of its own, fired after `addons_cache_tags_update` (triggers fire in name order): its
 * `x:` tags sort after that trigger's `a:` and `l:` tags, so a transaction still takes its tags'
 * locks in one order.
 */
const PUBLIC = (r: string) => `(${r}.status = 4 and not ${r}.disabled_by_user and ${r}.current_version_id is not null)`;

export class Migration20261125140000_CacheTagsText extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function addons_text_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        tags := array(
          select distinct 'x:' || left(l.lexeme, 2)
            from new_rows n join old_rows o on o.id = n.id,
              lateral unnest(tsvector_to_array(o.search_vector) || tsvector_to_array(n.search_vector)) as l(lexeme)
           where n.search_vector is distinct from o.search_vector and (${PUBLIC('o')} or ${PUBLIC('n')})
          union
          -- Exact name matches also find names made of stop words, which have no lexemes.
          select 'x:' || left(w.word, 2)
            from new_rows n join old_rows o on o.id = n.id,
              lateral regexp_split_to_table(
                lower(coalesce(addons_translations_text(o.name), '') || ' ' || coalesce(addons_translations_text(n.name), '')),
                '\\s+') as w(word)
           where n.name is distinct from o.name and w.word <> '' and (${PUBLIC('o')} or ${PUBLIC('n')}));
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "addons_cache_tags_update_text" after update on "addons"
      referencing old table as old_rows new table as new_rows for each statement execute function addons_text_cache_tags();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "addons_cache_tags_update_text" on "addons";`);
    this.addSql(`drop function if exists addons_text_cache_tags();`);
  }
}
