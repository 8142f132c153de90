-- A space's icon (an image URL shown instead of its emoji); NULL when it has none.
ALTER TABLE spaces ADD COLUMN icon TEXT;
-- A change request's external links, as a JSON array of {id, url, title}; NULL when it has none.
ALTER TABLE change_requests ADD COLUMN links TEXT;
-- What an organization's creator said in onboarding, as JSON {source, audience, interests};
-- NULL when they said nothing.
ALTER TABLE organizations ADD COLUMN onboarding_preferences TEXT;
