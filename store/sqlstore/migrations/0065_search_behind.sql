-- A merge leaves the search index behind its space's new revision and answers (issue 31): the
-- index is brought up to date right after the commit, or by the first search that finds it
-- behind, before that search reads it (searchbehind.go). behind_from is the revision the space's
-- index still reflects while the space's current revision has moved on; NULL when it is current.
ALTER TABLE search_spaces ADD COLUMN behind_from TEXT;
CREATE INDEX search_spaces_behind ON search_spaces(space_id) WHERE behind_from IS NOT NULL;
