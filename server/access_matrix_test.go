package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// The access matrix: every operation of openapi.yaml × every kind of caller, each cell with the
// status it must answer. The rows live in access_matrix_*_test.go, one file per API area; an
// operation of the spec without a row fails TestAccessMatrix, so a new operation cannot ship
// without someone deciding who may call it.
//
// The rules the rows follow (DESIGN.md §3, server/access.go): no token or a token nobody was
// given → 401; not a member of the owning organization → 404, the same as a missing resource;
// a member below the role the operation needs → 403; at or above it → the operation's success.
// Per-user operations and author rules (only a comment's author edits its body; the author or a
// space admin deletes it) have their real expectations written out.

// The callers of every row, from least to most privileged.
var matrixCallers = []string{"none", "garbage", "outsider", "reader", "commenter", "editor", "admin"}

// matrixWant is the status of a row's cells, in the order of matrixCallers.
type matrixWant [7]int

// matrixRequest is what a cell sends. gone, when set, tells whether the row's target was
// removed; the cell then checks that only a member entitled to the operation removed it.
// capability marks a path holding a secret its caller was given (an invite link's id): whoever
// holds it is answered, outsiders included, so the outsider's answer is not compared with an
// unknown organization's.
type matrixRequest struct {
	method, path string
	body         any
	gone         func(t *testing.T) bool
	capability   bool
}

// matrixRow is an operation's line of the matrix: the expected statuses and a builder that
// returns a valid request for a caller (ids that exist, a body that passes validation), creating
// fresh targets through the admin where the operation destroys or transforms its target.
type matrixRow struct {
	op    string
	want  matrixWant
	build func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest
}

func matrixReq(method, path string, body any) matrixRequest {
	return matrixRequest{method: method, path: path, body: body}
}

// accessMatrix is the whole table.
func accessMatrix() []matrixRow {
	var rows []matrixRow
	rows = append(rows, matrixOrgRows()...)
	rows = append(rows, matrixContentRows()...)
	rows = append(rows, matrixRevisionRows()...)
	rows = append(rows, matrixCommentRows()...)
	rows = append(rows, matrixSiteRows()...)
	rows = append(rows, matrixConversationRows()...)
	rows = append(rows, matrixTranslationRows()...)
	rows = append(rows, matrixSSORows()...)
	rows = append(rows, matrixOpenAPIRows()...)
	rows = append(rows, matrixIntegrationRows()...)
	rows = append(rows, matrixUninstallRows()...)
	rows = append(rows, matrixURLRows()...)
	rows = append(rows, matrixPermissionRows()...)
	rows = append(rows, matrixReviewRows()...)
	rows = append(rows, matrixInviteRows()...)
	rows = append(rows, matrixTeamMemberRows()...)
	rows = append(rows, matrixSiteOpsRows()...)
	rows = append(rows, matrixCustomizationRows()...)
	rows = append(rows, matrixSiteNavRows()...)
	rows = append(rows, matrixGitRows()...)
	rows = append(rows, matrixImportRows()...)
	rows = append(rows, matrixAuditRows()...)
	return rows
}

// specOperation is an operation of the embedded spec with the statuses it declares.
type specOperation struct {
	id, method, path string
	statuses         map[int]bool
}

// specOperations lists the operations of the embedded spec, sorted by id.
func specOperations(t *testing.T) []specOperation {
	t.Helper()
	var out []specOperation
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			so := specOperation{id: matrixOpID(op.OperationID), method: method, path: path, statuses: map[int]bool{}}
			for code := range op.Responses.Map() {
				var n int
				if _, err := fmt.Sscanf(code, "%d", &n); err != nil {
					t.Fatalf("%s: response %q is not a status", op.OperationID, code)
				}
				so.statuses[n] = true
			}
			out = append(out, so)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// TestAccessMatrixCoversTheSpec checks the table itself: a row for every operation of the spec,
// no row for an operation the spec lacks, one row per operation, and every expected status one
// the spec declares for its operation.
func TestAccessMatrixCoversTheSpec(t *testing.T) {
	t.Parallel()
	ops := specOperations(t)
	rows := map[string]matrixRow{}
	for _, r := range accessMatrix() {
		if _, dup := rows[r.op]; dup {
			t.Errorf("operation %s has two rows in the access matrix", r.op)
		}
		rows[r.op] = r
	}
	inSpec := map[string]bool{}
	for _, op := range ops {
		inSpec[op.id] = true
		t.Run(op.id, func(t *testing.T) {
			r, ok := rows[op.id]
			if !ok {
				t.Fatalf("operation %s has no row in the access matrix", op.id)
			}
			for i, status := range r.want {
				if !op.statuses[status] {
					t.Errorf("%s/%s expects %d, which the spec does not declare for %s %s", op.id, matrixCallers[i], status, op.method, op.path)
				}
			}
		})
	}
	for id := range rows {
		if !inSpec[id] {
			t.Errorf("the access matrix has a row for %s, which is not an operation of the spec", id)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("access matrix: %d of %d operations of the spec have a row", len(rows), len(ops))
}

// TestAccessMatrix sends every cell of the matrix against one shared world, caller by caller
// from least to most privileged, and checks each status (the harness checks each response
// against the spec).
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	rows := accessMatrix()
	byOp := map[string]matrixRow{}
	for _, r := range rows {
		byOp[r.op] = r
	}
	ops := specOperations(t)
	for _, op := range ops {
		if _, ok := byOp[op.id]; !ok {
			t.Errorf("operation %s has no row in the access matrix", op.id)
		}
	}
	if t.Failed() {
		return
	}

	start := time.Now()
	w := newMatrixWorld(t)
	built := time.Since(start)
	users := w.callers()
	cells, failed, statuses := 0, 0, map[int]int{}
	for _, op := range ops {
		r := byOp[op.id]
		for i, name := range matrixCallers {
			u, want := users[i], r.want[i]
			ok := t.Run(r.op+"/"+name, func(t *testing.T) {
				rq := r.build(t, w, u)
				if got := matrixOperation(rq.method, rq.path); got != r.op {
					t.Fatalf("the row's request %s %s is operation %q, not %s", rq.method, rq.path, got, r.op)
				}
				res := w.Do(t, u, rq.method, rq.path, rq.body)
				if res.Status != want {
					t.Fatalf("%s %s as %s: status %d, want %d: %s", rq.method, rq.path, name, res.Status, want, res.Body)
				}
				matrixAudited(t, w, i, r.op, rq.method, res)
				if i == matrixOutsider && !rq.capability {
					matrixSameAsUnknown(t, w, u, rq, res)
				}
				if rq.gone != nil {
					entitled := i >= matrixFirstMember && want >= 200 && want < 300
					if gone := rq.gone(t); gone != entitled {
						t.Fatalf("%s %s as %s answered %d and the target is gone=%v, want gone=%v", rq.method, rq.path, name, res.Status, gone, entitled)
					}
				}
			})
			cells++
			statuses[want]++
			if !ok {
				failed++
			}
		}
	}
	var counts []string
	for _, s := range []int{200, 201, 204, 401, 403, 404} {
		counts = append(counts, fmt.Sprintf("%d×%d", statuses[s], s))
	}
	t.Logf("access matrix: %d operations × %d callers = %d cells (%s), %d failed; world built in %s, all in %s",
		len(ops), len(matrixCallers), cells, strings.Join(counts, " "), failed, built.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// The indexes of the outsider and of the first caller who is a member of the organization.
const (
	matrixOutsider    = 2
	matrixFirstMember = 3
)

// matrixSameAsUnknown checks that what an outsider was answered tells nothing: the same request
// with the owning organization, space or collection replaced by an id that does not exist
// answers the same status and message.
func matrixSameAsUnknown(t *testing.T, w *matrixWorld, u *testUser, rq matrixRequest, res *response) {
	t.Helper()
	parts := strings.SplitN(rq.path, "/", 4) // "", "orgs", id, rest
	if len(parts) < 3 || (parts[1] != "orgs" && parts[1] != "spaces" && parts[1] != "collections") {
		return
	}
	parts[2] = "noSuchThing000000000"
	path := strings.Join(parts, "/")
	unknown := w.Do(t, u, rq.method, path, rq.body)
	if unknown.Status != res.Status || matrixMessage(unknown) != matrixMessage(res) {
		t.Fatalf("the outsider tells an existing resource from a missing one:\n%s %s: %d %s\n%s %s: %d %s",
			rq.method, rq.path, res.Status, res.Body, rq.method, path, unknown.Status, unknown.Body)
	}
}

// matrixMessage is the message of an error body ("" for none).
func matrixMessage(r *response) string {
	var e gen.Error
	if json.Unmarshal(r.Body, &e) != nil {
		return ""
	}
	return e.Error.Message
}

// matrixOperation names the operation of the spec a request matches ("" for none).
func matrixOperation(method, path string) string {
	r, err := http.NewRequest(method, "/v1"+path, nil)
	if err != nil {
		return ""
	}
	c := specRouter.NewContext(r, nil)
	specRouter.Router().Find(method, r.URL.Path, c)
	if route := specRoutes[method+" "+c.Path()]; route != nil {
		return matrixOpID(route.Operation.OperationID)
	}
	return ""
}

// matrixOpID spells an operation id of the embedded spec as openapi.yaml does: the generator
// embeds ids with their first letter upper-cased (ListPages for listPages).
func matrixOpID(id string) string {
	if id == "" {
		return id
	}
	return strings.ToLower(id[:1]) + id[1:]
}
