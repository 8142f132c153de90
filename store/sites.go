package store

import (
	"strconv"
	"strings"
)

// SiteCreate holds the fields a new site starts with; Spaces become its root site spaces, in order.
type SiteCreate struct {
	Type       string
	Title      string
	Visibility string
	Spaces     []string
}

// SiteFilter narrows a list of sites; nil fields do not filter.
type SiteFilter struct {
	Space     *string // only sites publishing this space
	Title     *string // title contains, case-insensitively
	Published *bool
}

// SiteUpdate holds the fields to change; nil leaves a field as it is. SetHostname and SetProxy
// say whether Hostname and Proxy are given (nil then removes them).
type SiteUpdate struct {
	Title           *string
	Visibility      *string
	Basename        *string
	SetHostname     bool
	Hostname        *string
	SetProxy        bool
	Proxy           *string
	AdaptiveEnabled *bool
	AgentsContext   *string
	SetDefaultLevel bool
	DefaultLevel    Role // RoleGuest: none
	// Checked to belong to the site in the same transaction; setting them is SetDefaultSiteSpace's
	// and SetDefaultSiteSection's job.
	DefaultSiteSpace   *string
	DefaultSiteSection *string
}

// UniquePath returns base, or base-2, base-3… when taken, within the 100 characters of a path.
func UniquePath(base string, taken map[string]bool) string {
	if !taken[base] {
		return base
	}
	for n := 2; ; n++ {
		suffix := "-" + strconv.Itoa(n)
		b := base
		if len(b)+len(suffix) > 100 {
			b = strings.TrimRight(b[:100-len(suffix)], "-")
		}
		if p := b + suffix; !taken[p] {
			return p
		}
	}
}
