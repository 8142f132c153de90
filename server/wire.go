package server

import (
	"net/url"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The wire forms of roles.

func apiRole(r store.Role) nullable.Nullable[gen.MemberRoleOrGuest] {
	if r == store.RoleGuest {
		return nullable.NewNullNullable[gen.MemberRoleOrGuest]()
	}
	return nullable.NewNullableWithValue(gen.MemberRoleOrGuest(r))
}

func apiLevel(r store.Role) nullable.Nullable[gen.DefaultLevel] {
	if r == store.RoleGuest {
		return nullable.NewNullNullable[gen.DefaultLevel]()
	}
	return nullable.NewNullableWithValue(gen.DefaultLevel(r))
}

// storeRole reads an explicit role or null from a request field (only called when it is set).
func storeRole[T ~string](v nullable.Nullable[T]) store.Role {
	if v.IsNull() {
		return store.RoleGuest
	}
	r, _ := v.Get()
	return store.Role(r)
}

// page turns the paging query parameters into a store page.
func page(cursor *string, limit *int) store.Page {
	p := store.Page{}
	if cursor != nil {
		p.Cursor = *cursor
	}
	if limit != nil {
		p.Limit = *limit
	}
	return p
}

func listNext(next string) *gen.ListNext {
	if next == "" {
		return nil
	}
	return &gen.ListNext{Page: next}
}

// convertItems converts the items of a list with a conversion that may fail.
func convertItems[T, U any](items []T, conv func(T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(items))
	for _, it := range items {
		u, err := conv(it)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// isWebURL tells whether a URL is absolute http or https with a host.
func isWebURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
