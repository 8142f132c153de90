package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
)

func tokenRows(t *testing.T, db string) []map[string]any {
	t.Helper()
	out, _, err := runQuire("tokens", "list", "--db", db, "--email", "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("tokens list printed %q", sc.Text())
		}
		rows = append(rows, row)
	}
	return rows
}

// A user has several named tokens, each listed with its last use; a revoked one authenticates
// nothing.
func TestTokensCreateListRevoke(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "quire.db")
	first := mustCreateUser(t, db)
	out, _, err := runQuire("tokens", "create", "--db", db, "--email", "ada@example.com", "--name", "ci")
	if err != nil {
		t.Fatal(err)
	}
	var ci struct{ ID, Name, Token string }
	if err := json.Unmarshal(out, &ci); err != nil || ci.Name != "ci" || len(ci.ID) != 16 || ci.Token == "" {
		t.Fatalf("tokens create printed %q (%v)", out, err)
	}
	rows := tokenRows(t, db)
	if len(rows) != 2 || rows[0]["name"] != "default" || rows[1]["name"] != "ci" || rows[1]["lastUsedAt"] != nil {
		t.Fatalf("tokens: %v", rows)
	}

	server, url := startQuire(t, db)
	for _, tok := range []string{first, ci.Token} {
		if status, _ := call(t, "GET", url+"/v1/user", tok, nil); status != http.StatusOK {
			t.Fatalf("GET /user with a token: %d", status)
		}
	}
	server.Process.Kill()
	server.Wait()
	for _, row := range tokenRows(t, db) {
		if row["lastUsedAt"] == nil {
			t.Fatalf("token %v was used but has no last use", row)
		}
	}

	if out, err := combinedQuire("tokens", "revoke", "--db", db, ci.ID); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if out, err := combinedQuire("tokens", "revoke", "--db", db, ci.ID); err == nil {
		t.Fatalf("revoking twice succeeded: %s", out)
	}
	if out, err := combinedQuire("tokens", "revoke", "--db", db, "zz"); err == nil {
		t.Fatalf("revoking a malformed id succeeded: %s", out)
	}
	if rows := tokenRows(t, db); len(rows) != 1 || rows[0]["name"] != "default" {
		t.Fatalf("after revoking ci: %v", rows)
	}
	_, url = startQuire(t, db)
	if status, _ := call(t, "GET", url+"/v1/user", ci.Token, nil); status != http.StatusUnauthorized {
		t.Fatalf("a revoked token: %d, want 401", status)
	}
	if status, _ := call(t, "GET", url+"/v1/user", first, nil); status != http.StatusOK {
		t.Fatalf("the other token: %d", status)
	}
}
