-- The translation glossary (issue 32): an organization's terms, each entry a term by language
-- (GitBook's ISO 639-1 codes), which translation runs translate as the entry says. The terms are
-- kept twice: whole with the entry (answered as they are), and one row per language, which the
-- list's order by a language reads.
CREATE TABLE translation_glossary (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    translations    TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX translation_glossary_org ON translation_glossary(organization_id, created_at, id);

CREATE TABLE translation_glossary_terms (
    entry_id TEXT NOT NULL REFERENCES translation_glossary(id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    term     TEXT NOT NULL,
    PRIMARY KEY (entry_id, language)
);
CREATE INDEX translation_glossary_terms_language ON translation_glossary_terms(language, term);
