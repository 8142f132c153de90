package store

import (
	"time"
)

// Collection groups spaces and other collections of an organization.
type Collection struct {
	ID             string
	OrganizationID string
	ParentID       *string
	Title          string
	Description    *string
	DefaultLevel   Role // "" is null (no level); LevelInherit takes the parent's
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CollectionUpdate holds the fields to change; nil leaves a field as it is.
type CollectionUpdate struct {
	Title           *string
	Description     *string
	SetDefaultLevel bool
	DefaultLevel    Role
}

// LevelNode is a collection's place in the level chain.
type LevelNode struct {
	Parent *string
	Level  Role
}

// Levels maps collection ids to their level nodes.
type Levels map[string]LevelNode

// Resolve returns the level content gets from its own default level and, through `inherit`,
// its ancestors'. "" means no level.
func (l Levels) Resolve(level Role, parent *string) Role {
	for depth := 0; level == LevelInherit && depth < 64; depth++ {
		if parent == nil {
			return RoleGuest
		}
		n, ok := l[*parent]
		if !ok {
			return RoleGuest
		}
		level, parent = n.Level, n.Parent
	}
	if level == LevelInherit {
		return RoleGuest
	}
	return level
}

// Base returns the level content gets from its default level through `inherit`, and whether
// members keep their organization role there: false when the chain ends at a null level (no
// access by default); an `inherit` that reaches the top takes the organization's.
func (l Levels) Base(level Role, parent *string) (Role, bool) {
	for depth := 0; level == LevelInherit && depth < 64; depth++ {
		if parent == nil {
			return RoleGuest, true
		}
		n, ok := l[*parent]
		if !ok {
			return RoleGuest, true
		}
		level, parent = n.Level, n.Parent
	}
	if level == LevelInherit {
		return RoleGuest, true
	}
	return level, level != RoleGuest
}

// Ancestors lists a parent collection and the collections above it, nearest first.
func (l Levels) Ancestors(parent *string) []string {
	var out []string
	for depth := 0; parent != nil && depth < 64; depth++ {
		out = append(out, *parent)
		n, ok := l[*parent]
		if !ok {
			break
		}
		parent = n.Parent
	}
	return out
}
