package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/store/postgres"
	"github.com/quire-docs/quire/store/postgres/pgtest"
)

// freshPostgres creates an empty database on the PostgreSQL cluster of the tests (they skip
// without one, and in -short mode: they start real server processes) and answers its URL.
func freshPostgres(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts real server processes")
	}
	return pgtest.Database(t, "several nodes")
}

// mustCall is call that must answer want.
func mustCall(t *testing.T, want int, method, url, token string, body any) map[string]any {
	t.Helper()
	status, out := call(t, method, url, token, body)
	if status != want {
		t.Fatalf("%s %s: %d %v, want %d", method, url, status, out, want)
	}
	return out
}

// Two quire processes on one PostgreSQL database behave as one: what one acknowledges the other
// reads at once, change-request numbers stay unique and gapless when both create at once, merges
// of one space are serialized across them, and recurring jobs are scheduled once.
func TestTwoNodesOnOneDatabase(t *testing.T) {
	t.Parallel()
	db := freshPostgres(t)
	if !postgres.IsURL(db) {
		t.Fatalf("not a PostgreSQL URL: %s", db)
	}
	token := mustCreateUser(t, db)
	_, a := startQuire(t, db)
	_, b := startQuire(t, db)

	org := mustCall(t, http.StatusCreated, "POST", a+"/v1/orgs", token, map[string]any{"title": "Acme"})
	orgID := org["id"].(string)
	sp := mustCall(t, http.StatusCreated, "POST", a+"/v1/orgs/"+orgID+"/spaces", token, map[string]any{"title": "Handbook"})
	spaceID := sp["id"].(string)

	t.Run("a write on one node is read at once on the other", func(t *testing.T) {
		for i := 0; i < 10; i++ {
			writer, reader := a, b
			if i%2 == 1 {
				writer, reader = b, a
			}
			// The reader reads first, so a per-process cache would hold the old title.
			mustCall(t, http.StatusOK, "GET", reader+"/v1/spaces/"+spaceID, token, nil)
			title := fmt.Sprintf("Handbook %d", i)
			mustCall(t, http.StatusOK, "PATCH", writer+"/v1/spaces/"+spaceID, token, map[string]any{"title": title})
			got := mustCall(t, http.StatusOK, "GET", reader+"/v1/spaces/"+spaceID, token, nil)
			if got["title"] != title {
				t.Fatalf("after a write on %s, %s reads title %v, want %q", writer, reader, got["title"], title)
			}
		}
	})

	t.Run("under concurrent reads and writes, a returned write is read at once on the other node", func(t *testing.T) {
		other := mustCall(t, http.StatusCreated, "POST", a+"/v1/orgs/"+orgID+"/spaces", token, map[string]any{"title": "Other"})
		otherID := other["id"].(string)
		done := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 6 { // readers keep both nodes' caches warm; one writer moves other spaces
			wg.Add(1)
			go func() {
				defer wg.Done()
				node := []string{a, b}[w%2]
				for i := 0; ; i++ {
					select {
					case <-done:
						return
					default:
					}
					if w == 0 {
						call(t, "PATCH", node+"/v1/spaces/"+otherID, token, map[string]any{"title": fmt.Sprintf("Other %d", i)})
					} else {
						call(t, "GET", node+"/v1/spaces/"+spaceID, token, nil)
					}
				}
			}()
		}
		defer func() { close(done); wg.Wait() }()
		for i := range 30 {
			writer, reader := a, b
			if i%2 == 1 {
				writer, reader = b, a
			}
			title := fmt.Sprintf("Busy %d", i)
			mustCall(t, http.StatusOK, "PATCH", writer+"/v1/spaces/"+spaceID, token, map[string]any{"title": title})
			got := mustCall(t, http.StatusOK, "GET", reader+"/v1/spaces/"+spaceID, token, nil)
			if got["title"] != title {
				t.Fatalf("after write %d on %s, %s reads title %v, want %q", i, writer, reader, got["title"], title)
			}
		}
	})

	t.Run("change-request numbers stay unique and gapless", func(t *testing.T) {
		var mu sync.Mutex
		var numbers []int
		var wg sync.WaitGroup
		for w := 0; w < 6; w++ {
			node := []string{a, b}[w%2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 5; i++ {
					status, cr := call(t, "POST", node+"/v1/spaces/"+spaceID+"/change-requests", token, map[string]any{"subject": "parallel"})
					if status != http.StatusCreated {
						t.Errorf("create change request on %s: %d %v", node, status, cr)
						return
					}
					mu.Lock()
					numbers = append(numbers, int(cr["number"].(float64)))
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		sort.Ints(numbers)
		for i, n := range numbers {
			if n != i+1 {
				t.Fatalf("numbers %v: not 1..%d", numbers, len(numbers))
			}
		}
		if len(numbers) != 30 {
			t.Fatalf("%d change requests created, want 30", len(numbers))
		}
	})

	// content writes a batch into a change request and answers the page ids of its refs.
	content := func(node, crID string, changes ...map[string]any) map[string]string {
		t.Helper()
		out := mustCall(t, http.StatusOK, "POST", node+"/v1/spaces/"+spaceID+"/change-requests/"+crID+"/content?compat=false", token,
			map[string]any{"changes": changes})
		refs := map[string]string{}
		for _, c := range out["changes"].([]any) {
			ch := c.(map[string]any)
			if ref, ok := ch["ref"].(string); ok {
				refs[ref] = ch["page"].(map[string]any)["id"].(string)
			}
		}
		return refs
	}
	newCR := func(node string) string {
		t.Helper()
		return mustCall(t, http.StatusCreated, "POST", node+"/v1/spaces/"+spaceID+"/change-requests", token, map[string]any{"subject": "edit"})["id"].(string)
	}
	edit := func(page, markdown string) map[string]any {
		return map[string]any{"operation": "update_page", "page": page, "document": map[string]any{"markdown": markdown}}
	}
	insert := func(ref, title string) map[string]any {
		return map[string]any{"operation": "insert_page", "title": title, "ref": ref, "document": map[string]any{"markdown": "Text of " + title + ".\n"}}
	}
	// mergeBoth merges one change request on each node at the same moment.
	mergeBoth := func(crA, crB string) (string, string) {
		var wg sync.WaitGroup
		results := make([]string, 2)
		for i, x := range []struct{ node, cr string }{{a, crA}, {b, crB}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, res := call(t, "POST", x.node+"/v1/spaces/"+spaceID+"/change-requests/"+x.cr+"/merge", token, nil)
				if status != http.StatusOK {
					t.Errorf("merge on %s: %d %v", x.node, status, res)
					return
				}
				results[i], _ = res["result"].(string)
			}()
		}
		wg.Wait()
		return results[0], results[1]
	}

	seed := newCR(a)
	pages := content(a, seed, insert("one", "One"), insert("two", "Two"))
	if r := mustCall(t, http.StatusOK, "POST", a+"/v1/spaces/"+spaceID+"/change-requests/"+seed+"/merge", token, nil); r["result"] != "merge" {
		t.Fatalf("seed merge: %v", r)
	}

	t.Run("two merges touching the same page: one merges, the other conflicts", func(t *testing.T) {
		for round := 0; round < 3; round++ {
			x, y := newCR(a), newCR(b)
			content(a, x, edit(pages["one"], fmt.Sprintf("From node A, round %d.\n", round)))
			content(b, y, edit(pages["one"], fmt.Sprintf("From node B, round %d.\n", round)))
			ra, rb := mergeBoth(x, y)
			if !(ra == "merge" && rb == "conflicts" || ra == "conflicts" && rb == "merge") {
				t.Fatalf("round %d: merges answered %q and %q, want one merge and one conflicts", round, ra, rb)
			}
		}
	})

	t.Run("two merges touching different pages both apply", func(t *testing.T) {
		x, y := newCR(a), newCR(b)
		content(a, x, edit(pages["one"], "One, edited on A.\n"))
		content(b, y, edit(pages["two"], "Two, edited on B.\n"))
		ra, rb := mergeBoth(x, y)
		if ra != "merge" || rb != "merge" {
			t.Fatalf("merges answered %q and %q, want both merge", ra, rb)
		}
		for page, want := range map[string]string{pages["one"]: "One, edited on A.", pages["two"]: "Two, edited on B."} {
			got := mustCall(t, http.StatusOK, "GET", b+"/v1/spaces/"+spaceID+"/content/page/"+page+"?format=markdown", token, nil)
			if md, _ := got["markdown"].(string); md == "" || md[:len(want)] != want {
				t.Fatalf("page %s on main reads %v, want %q", page, got["markdown"], want)
			}
		}
	})

	t.Run("recurring jobs are scheduled once", func(t *testing.T) {
		conn, err := sql.Open("pgx", db)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var n int
		if err := conn.QueryRowContext(context.Background(), `SELECT count(*) FROM jobs WHERE kind = 'purge_deleted_spaces' AND state = 'pending'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("%d pending purge jobs for two nodes, want 1", n)
		}
	})
}

// kill -9 of one node under write load on both loses no acknowledged write, and the other node
// keeps serving meanwhile.
func TestNodeKilledUnderWriteLoad(t *testing.T) {
	t.Parallel()
	db := freshPostgres(t)
	token := mustCreateUser(t, db)
	victim, a := startQuire(t, db)
	_, b := startQuire(t, db)
	orgID := mustCall(t, http.StatusCreated, "POST", b+"/v1/orgs", token, map[string]any{"title": "Acme"})["id"].(string)

	var mu sync.Mutex
	acked := map[string]string{} // collection id -> title
	ackedOn := map[string]int{}  // node -> writes it acknowledged
	var survivorFailures []string
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		node := []string{a, b}[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				title := fmt.Sprintf("w%d-%d", w, i)
				status, c := call(t, "POST", node+"/v1/orgs/"+orgID+"/collections", token, map[string]any{"title": title})
				mu.Lock()
				if status == http.StatusCreated {
					acked[c["id"].(string)] = title
					ackedOn[node]++
				} else if node == b {
					survivorFailures = append(survivorFailures, fmt.Sprintf("%d %v", status, c))
				}
				mu.Unlock()
			}
		}()
	}
	acks := func(node string) int { mu.Lock(); defer mu.Unlock(); return ackedOn[node] }
	waitUntil(func() bool { return acks(a) >= 25 && acks(b) >= 25 })
	victim.Process.Kill() // SIGKILL, in the middle of its writers' requests
	victim.Wait()
	survivorBefore := acks(b)
	if !waitUntil(func() bool { return acks(b) >= survivorBefore+25 }) { // the survivor goes on taking writes
		t.Errorf("the surviving node acknowledged %d writes after the kill, want 25", acks(b)-survivorBefore)
	}
	cancel()
	wg.Wait()
	if len(acked) < 8 {
		t.Fatalf("only %d writes were acknowledged", len(acked))
	}
	if len(survivorFailures) > 0 {
		t.Fatalf("the surviving node failed %d writes: %v", len(survivorFailures), survivorFailures)
	}
	for id, title := range acked {
		c := mustCall(t, http.StatusOK, "GET", b+"/v1/collections/"+id, token, nil)
		if c["title"] != title {
			t.Fatalf("acknowledged collection %s reads %v, want %q", id, c["title"], title)
		}
	}
	t.Logf("%d acknowledged writes all read back on the surviving node after kill -9 of the other", len(acked))
}

// Connections lost while serving: requests answer 503 in the error shape (never 500), and the
// pool reconnects, so service resumes by itself.
func TestLostConnectionsAnswer503(t *testing.T) {
	t.Parallel()
	db := freshPostgres(t)
	token := mustCreateUser(t, db)
	_, node := startQuire(t, db)
	orgID := mustCall(t, http.StatusCreated, "POST", node+"/v1/orgs", token, map[string]any{"title": "Acme"})["id"].(string)
	admin, err := sql.Open("pgx", os.Getenv("QUIRE_TEST_POSTGRES_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	u, _ := url.Parse(db)
	name := u.Path[1:]
	ok, unavailable := 0, 0
	for round := 0; round < 5; round++ {
		// Cut every connection the node holds to its database.
		if _, err := admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			status, body := call(t, "POST", node+"/v1/orgs/"+orgID+"/collections", token, map[string]any{"title": fmt.Sprintf("r%d-%d", round, i)})
			switch status {
			case http.StatusCreated:
				ok++
			case http.StatusServiceUnavailable:
				e, _ := body["error"].(map[string]any)
				if e == nil || e["code"] != float64(503) {
					t.Fatalf("503 without the error shape: %v", body)
				}
				unavailable++
			default:
				t.Fatalf("after lost connections: %d %v, want 201 or 503", status, body)
			}
		}
	}
	if ok == 0 {
		t.Fatal("no write succeeded after the connections were cut: the pool did not reconnect")
	}
	t.Logf("%d writes acknowledged, %d answered 503 around the cuts", ok, unavailable)
	list := mustCall(t, http.StatusOK, "GET", node+"/v1/orgs/"+orgID+"/collections", token, nil)
	if int(list["count"].(float64)) != ok {
		t.Fatalf("%d collections stored, %d acknowledged", int(list["count"].(float64)), ok)
	}
}

// A token's rate limit is one budget across nodes (issue 31): what one node admitted counts on
// the other. Node a admits 20 of a 30-a-minute budget; once it has shared its count (within a
// second), node b admits 10 more and refuses the rest. Counted per node, b would admit all 20.
func TestRateLimitIsOneBudgetAcrossNodes(t *testing.T) {
	db := freshPostgres(t)
	token := mustCreateUser(t, db)
	_, a := startQuire(t, db, "--rate-limit", "30")
	_, b := startQuire(t, db, "--rate-limit", "30")
	// Windows are whole minutes: start where this test fits in one.
	if s := time.Now().Second(); s > 45 {
		time.Sleep(time.Duration(61-s) * time.Second)
	}
	get := func(node string) (int, string) {
		req, _ := http.NewRequest("GET", node+"/v1/user", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("X-RateLimit-Remaining")
	}
	for i := 0; i < 20; i++ {
		if status, _ := get(a); status != http.StatusOK {
			t.Fatalf("request %d on a: %d", i+1, status)
		}
	}
	time.Sleep(2500 * time.Millisecond) // a shares its count within a second
	admitted := 0
	for i := 0; i < 20; i++ {
		status, remaining := get(b)
		switch {
		case status == http.StatusOK:
			admitted++
			if want := strconv.Itoa(30 - 20 - admitted); remaining != want {
				t.Errorf("request %d on b: X-RateLimit-Remaining %s, want %s", i+1, remaining, want)
			}
		case status != http.StatusTooManyRequests:
			t.Fatalf("request %d on b: %d", i+1, status)
		}
	}
	if admitted != 10 {
		t.Fatalf("b admitted %d of 20 requests after a used 20 of 30, want 10", admitted)
	}
	// And a learns what b counted: its budget is spent too.
	time.Sleep(2500 * time.Millisecond)
	if status, _ := get(a); status != http.StatusTooManyRequests {
		t.Fatalf("a after b spent the budget: %d, want 429", status)
	}
}
