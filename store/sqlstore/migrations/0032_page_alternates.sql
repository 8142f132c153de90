-- Meta-links (issue 25): a page's alternates are the pages translations made of it and the page
-- it was translated from, found from either side of a translation in one indexed lookup.
CREATE INDEX translations_source_space ON translations(source_space_id);
CREATE INDEX translations_result_space ON translations(result_space_id);
CREATE INDEX translation_pages_result ON translation_pages(translation_id, result_page_id);
