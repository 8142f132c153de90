-- Invitations to organizations (issue 28): links, which anyone holding one may use while the
-- organization allows invite links, and invitations sent to one email address, which only that
-- address's user may use, once, before they expire.
ALTER TABLE organization_invites ADD COLUMN email TEXT COLLATE "C";
ALTER TABLE organization_invites ADD COLUMN created_by TEXT COLLATE "C" REFERENCES users(id);
ALTER TABLE organization_invites ADD COLUMN expires_at TEXT COLLATE "C";
ALTER TABLE organization_invites ADD COLUMN used_at TEXT COLLATE "C";
ALTER TABLE organization_invites ADD COLUMN used_by TEXT COLLATE "C" REFERENCES users(id);
ALTER TABLE organization_invites ADD COLUMN sso INTEGER NOT NULL DEFAULT 0;  -- the member joins as an SSO user
CREATE INDEX organization_invites_list ON organization_invites(organization_id, created_at, id) WHERE email IS NULL;
CREATE INDEX organization_invites_email ON organization_invites(organization_id, email) WHERE email IS NOT NULL;
