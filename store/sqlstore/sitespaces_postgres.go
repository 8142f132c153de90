package sqlstore

// pgPromoteSiteSpaces is sqlitePromoteSiteSpaces in PostgreSQL's JSON operators.
const pgPromoteSiteSpaces = `UPDATE site_spaces SET is_default = 1 WHERE id IN (
		SELECT (SELECT x.id FROM site_spaces x
			WHERE x.site_id = g.value->>'site' AND x.section_id IS NOT DISTINCT FROM g.value->>'section'
			ORDER BY x.position <= (g.value->>'position')::float8, x.position, x.id LIMIT 1)
		FROM json_array_elements(?::json) AS g(value))`
