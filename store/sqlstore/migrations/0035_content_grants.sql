-- Permissions on content (issue 28): a role granted on a space, a collection or a site to a
-- member of its organization (user_id) or to one of its teams (team_id), exactly one of the two.
-- A user's or team's grant on a target is one row (the unique keys). The target is named by kind
-- and id without a foreign key (three kinds share the table); the store removes a target's grants
-- with the target (collections, sites, purged or transferred spaces) and a member's when they
-- leave the organization.
CREATE TABLE content_grants (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    target_kind     TEXT COLLATE "C" NOT NULL,
    target_id       TEXT COLLATE "C" NOT NULL,
    user_id         TEXT COLLATE "C" REFERENCES users(id) ON DELETE CASCADE,
    team_id         TEXT COLLATE "C" REFERENCES teams(id) ON DELETE CASCADE,
    role            TEXT COLLATE "C" NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    UNIQUE (target_id, user_id),
    UNIQUE (target_id, team_id)
);
CREATE INDEX content_grants_org_user ON content_grants(organization_id, user_id);
CREATE INDEX content_grants_team ON content_grants(team_id);
