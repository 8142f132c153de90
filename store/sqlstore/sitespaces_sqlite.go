package sqlstore

// sqlitePromoteSiteSpaces makes, for each gone default of a JSON array of goneDefault, the site
// space after it in its container (or the first one) the default.
const sqlitePromoteSiteSpaces = `UPDATE site_spaces SET is_default = 1 WHERE id IN (
		SELECT (SELECT x.id FROM site_spaces x
			WHERE x.site_id = json_extract(g.value, '$.site') AND x.section_id IS json_extract(g.value, '$.section')
			ORDER BY x.position <= json_extract(g.value, '$.position'), x.position, x.id LIMIT 1)
		FROM json_each(?) g)`
