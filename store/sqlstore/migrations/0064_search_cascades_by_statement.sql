-- The search tables are an index derived from the pages (issue 31): their rows come and go
-- together, written by the store in sets. PostgreSQL checked each inserted row's foreign key on
-- its own (an internal query per row, 4,000 in a merge of 1,000 one-section pages; EXPLAIN
-- ANALYZE gave 3,000 section rows 87-186 ms in their key's trigger on a loaded machine) and
-- cascaded each deleted row's the same way. Here the keys go, and what they cascaded is
-- done by triggers once per statement, over the rows it deleted: a space's search pages when the
-- space goes, a search page's sections and title, a section's words. SQLite keeps its keys: it
-- checks them in the same b-tree walk, and its FTS5 rows already go by triggers.
-- if postgres
ALTER TABLE search_fts DROP CONSTRAINT search_fts_id_fkey;
ALTER TABLE search_titles DROP CONSTRAINT search_titles_id_fkey;
ALTER TABLE search_sections DROP CONSTRAINT search_sections_page_fkey;
ALTER TABLE search_pages DROP CONSTRAINT search_pages_space_id_fkey;

CREATE FUNCTION quire_search_spaces_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_pages WHERE space_id = ANY (ARRAY(SELECT id FROM gone));
    RETURN NULL;
END
$$;
CREATE TRIGGER search_spaces_gone AFTER DELETE ON spaces REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION quire_search_spaces_gone();

CREATE FUNCTION quire_search_pages_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_sections WHERE page = ANY (ARRAY(SELECT id FROM gone));
    DELETE FROM search_titles WHERE id = ANY (ARRAY(SELECT id FROM gone));
    RETURN NULL;
END
$$;
CREATE TRIGGER search_pages_gone AFTER DELETE ON search_pages REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION quire_search_pages_gone();

CREATE FUNCTION quire_search_sections_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_fts WHERE id = ANY (ARRAY(SELECT id FROM gone));
    RETURN NULL;
END
$$;
CREATE TRIGGER search_sections_gone AFTER DELETE ON search_sections REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION quire_search_sections_gone();
-- end if
