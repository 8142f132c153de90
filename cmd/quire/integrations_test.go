package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
)

// The signing secret of an integration published through a running quire is shown by
// `quire integrations signing-secret`, the same on every call; an unknown name is an error.
func TestIntegrationSigningSecret(t *testing.T) {
	db := filepath.Join(t.TempDir(), "quire.db")
	token := mustCreateUser(t, db)
	server, url := startQuire(t, db)
	status, org := call(t, "POST", url+"/v1/orgs", token, map[string]any{"title": "Acme"})
	if status != http.StatusCreated {
		t.Fatalf("create org: %d", status)
	}
	status, _ = call(t, "POST", url+"/v1/integrations/notify", token, map[string]any{"organization": org["id"],
		"title": "Notify", "description": "d", "script": "s", "scopes": []string{}})
	if status != http.StatusOK {
		t.Fatalf("publish: %d", status)
	}
	server.Process.Kill()
	server.Wait()

	var first string
	for i := 0; i < 2; i++ {
		out, _, err := runQuire("integrations", "signing-secret", "--db", db, "notify")
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Integration, SigningSecret string }
		if err := json.Unmarshal(out, &got); err != nil || got.Integration != "notify" ||
			!regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(got.SigningSecret) || (first != "" && got.SigningSecret != first) {
			t.Fatalf("signing-secret printed %q (%v)", out, err)
		}
		first = got.SigningSecret
	}
	if _, _, err := runQuire("integrations", "signing-secret", "--db", db, "nope"); err == nil {
		t.Fatal("an unknown integration has a signing secret")
	}
}
