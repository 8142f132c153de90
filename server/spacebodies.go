package server

import (
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/quire-docs/quire/store"
)

// spaceBodies keeps the encoded answer of GET /v1/spaces/{id} per space and role: converting and
// encoding a space is most of what a cached read of one costs above the network. An answer is
// reused only for a request whose space, as read for it (the store answers the current one, on
// every node), equals field by field the one it was made from, with the same role and base
// URL: the inputs of toAPISpace. So no write, on this node or another, can make it serve an old
// body, and nothing needs dropping: a changed space misses and replaces its entry.
type spaceBodies struct {
	mu sync.Mutex
	m  map[spaceBodyKey]*spaceBody
}

// spaceBodiesMax bounds the entries kept (a space's body is under a kilobyte); past it they are
// all dropped and refilled by the reads that follow.
const spaceBodiesMax = 4096

type spaceBodyKey struct {
	id   string
	role store.Role
}

type spaceBody struct {
	space   store.Space
	baseURL string
	body    []byte // never changed once stored
}

// get answers the body for sp seen with role, from the cache when its entry was made from the
// same inputs, else from encode (and keeps it).
func (c *spaceBodies) get(sp *store.Space, role store.Role, baseURL string, encode func() ([]byte, error)) ([]byte, error) {
	key := spaceBodyKey{sp.ID, role}
	c.mu.Lock()
	e := c.m[key]
	c.mu.Unlock()
	if e != nil && e.baseURL == baseURL && sameSpace(&e.space, sp) {
		return e.body, nil
	}
	body, err := encode()
	if err != nil {
		return nil, err
	}
	e = &spaceBody{space: *sp, baseURL: baseURL, body: body}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= spaceBodiesMax {
		c.m = map[spaceBodyKey]*spaceBody{}
	}
	c.m[key] = e
	c.mu.Unlock()
	return body, nil
}

// sameSpace tells whether two spaces hold the same values in every field (pointed-to values
// compared, not pointers). TestSameSpaceComparesEveryField fails when a field is added to
// store.Space and not here.
func sameSpace(a, b *store.Space) bool {
	return a.ID == b.ID && a.OrganizationID == b.OrganizationID && samePtr(a.ParentID, b.ParentID) &&
		a.Title == b.Title && a.Emoji == b.Emoji && samePtr(a.Icon, b.Icon) && a.Visibility == b.Visibility &&
		a.EditMode == b.EditMode && a.DefaultLevel == b.DefaultLevel && samePtr(a.Language, b.Language) &&
		sameMergeRules(a.MergeRules, b.MergeRules) && a.RevisionID == b.RevisionID && a.Comments == b.Comments &&
		a.ChangeRequests == b.ChangeRequests && a.ChangeRequestsOpen == b.ChangeRequestsOpen &&
		a.ChangeRequestsDraft == b.ChangeRequestsDraft && sameTime(a.CreatedAt, b.CreatedAt) &&
		sameTime(a.UpdatedAt, b.UpdatedAt) && sameTimePtr(a.DeletedAt, b.DeletedAt)
}

func sameMergeRules(a, b store.MergeRules) bool {
	return a.Type == b.Type && slices.EqualFunc(a.Rules, b.Rules, func(x, y store.MergeRule) bool {
		return x.Rule == y.Rule && slices.Equal(x.Users, y.Users) && x.Expression == y.Expression && x.Message == y.Message
	})
}

func samePtr[T comparable](a, b *T) bool { return a == b || a != nil && b != nil && *a == *b }

// sameTime is equality as the answer shows a time: the same instant in the same zone.
func sameTime(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }

func sameTimePtr(a, b *time.Time) bool { return a == b || a != nil && b != nil && sameTime(*a, *b) }

// encodedSpace is GET /v1/spaces/{id}'s 200 answer already encoded, written as the generated
// GetSpaceById200JSONResponse writes its own.
type encodedSpace []byte

func (b encodedSpace) VisitGetSpaceByIdResponse(w http.ResponseWriter) error {
	return writeEncodedJSON(w, b)
}
