-- Site insights (issue 30): what aggregateSiteEvents groups and filters by, out of each event's
-- payload into columns (filled from the payloads already stored), and an index for counting a
-- site's events per page over a time range.
ALTER TABLE site_events ADD COLUMN url TEXT COLLATE "C";
ALTER TABLE site_events ADD COLUMN url_path TEXT COLLATE "C";
ALTER TABLE site_events ADD COLUMN site_section_id TEXT COLLATE "C";
ALTER TABLE site_events ADD COLUMN site_space_id TEXT COLLATE "C";
ALTER TABLE site_events ADD COLUMN search_query TEXT COLLATE "C";
ALTER TABLE site_events ADD COLUMN feedback_rating TEXT COLLATE "C";
-- if sqlite
UPDATE site_events SET url = json_extract(payload, '$.location.url'),
    site_section_id = json_extract(payload, '$.location.siteSection'),
    site_space_id = json_extract(payload, '$.location.siteSpace'),
    search_query = json_extract(payload, '$.query'),
    feedback_rating = json_extract(payload, '$.feedback.rating');
-- end if
-- if postgres
UPDATE site_events SET url = payload::json->'location'->>'url',
    site_section_id = payload::json->'location'->>'siteSection',
    site_space_id = payload::json->'location'->>'siteSpace',
    search_query = payload::json->>'query',
    feedback_rating = payload::json->'feedback'->>'rating';
-- end if
CREATE INDEX site_events_page ON site_events(site_id, space_id, page_id, occurred_at);
