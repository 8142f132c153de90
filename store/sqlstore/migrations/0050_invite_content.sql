-- Invite links to a space or a collection (issue 28): who joins is granted the link's role (its
-- level) on that content, as a guest of the organization when not a member yet.
ALTER TABLE organization_invites ADD COLUMN target_kind TEXT COLLATE "C";
ALTER TABLE organization_invites ADD COLUMN target_id TEXT COLLATE "C";
