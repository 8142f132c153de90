package sqlstore

import "github.com/quire-docs/quire/store"

func nullRole(r store.Role) any {
	if r == store.RoleGuest {
		return nil
	}
	return string(r)
}
