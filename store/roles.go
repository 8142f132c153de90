package store

// Role is a member's role in an organization or on content. "" is a guest: a member without a
// role, who sees only what they are given access to.
type Role string

// The roles, strongest first: admin > create > review > edit > comment > read.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
	RoleGuest   Role = ""
	// LevelInherit is a content default level that takes the parent collection's.
	LevelInherit Role = "inherit"
)

var roleRank = map[Role]int{RoleRead: 1, RoleComment: 2, RoleEdit: 3, RoleReview: 4, RoleCreate: 5, RoleAdmin: 6}

// AtLeast reports whether r grants everything min does.
func (r Role) AtLeast(min Role) bool { return roleRank[r] >= roleRank[min] && roleRank[r] > 0 }

// Max returns the stronger of two roles.
func (r Role) Max(o Role) Role {
	if roleRank[o] > roleRank[r] {
		return o
	}
	return r
}
