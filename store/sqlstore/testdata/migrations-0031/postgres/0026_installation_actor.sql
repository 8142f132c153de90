-- The user who installed an integration on an organization: the writes its installation tokens
-- make (change requests, content) are attributed to them. NULL for installations made before.
ALTER TABLE integration_installations ADD COLUMN installed_by TEXT REFERENCES users(id);
