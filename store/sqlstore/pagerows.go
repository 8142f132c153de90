package sqlstore

// A page's row as the revision reads select it, and its link target.

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const pageColumns = `p.page_id, p.parent_id, p.position, p.title, p.slug, p.path, p.emoji, p.description,
	p.hidden, p.icon, p.no_index, p.no_robots_index, p.visitor_condition, p.page_type, p.target_kind, p.target, p.target_space, p.body_id, p.created_at, p.updated_at, p.link_title, p.cover`

func scanPage(sc interface{ Scan(...any) error }, p *store.RevisionPage, extra ...any) error {
	var parent, emoji, icon, condition, targetKind, target, targetSpace, linkTitle, cover sql.NullString
	var created, updated string
	if err := sc.Scan(append([]any{&p.ID, &parent, &p.Position, &p.Title, &p.Slug, &p.Path, &emoji, &p.Description,
		&p.Hidden, &icon, &p.NoIndex, &p.NoRobotsIndex, &condition, &p.Type, &targetKind, &target, &targetSpace,
		&p.BodyID, &created, &updated, &linkTitle, &cover}, extra...)...); err != nil {
		return err
	}
	p.LinkTitle, p.Cover = stringPtr(linkTitle), nil
	if cover.Valid {
		p.Cover = &store.PageCover{}
		if err := json.Unmarshal([]byte(cover.String), p.Cover); err != nil {
			return fmt.Errorf("store: page %s: cover: %w", p.ID, err)
		}
	}
	p.Target = scanTarget(targetKind, target, targetSpace)
	p.ParentID, p.Emoji = stringPtr(parent), stringPtr(emoji)
	p.Icon, p.Condition = stringPtr(icon), stringPtr(condition)
	p.CreatedAt, p.UpdatedAt = parseTime(created), parseTime(updated)
	return nil
}

// scanTarget makes a link page's target from its columns (nil when it has none).
func scanTarget(kind, target, space sql.NullString) *store.PageTarget {
	if !kind.Valid {
		return nil
	}
	t := &store.PageTarget{Kind: kind.String, Space: space.String}
	switch kind.String {
	case store.TargetURL:
		t.URL = target.String
	case store.TargetPage:
		t.Page = target.String
	case store.TargetSpace:
		t.Space = target.String
	}
	return t
}
