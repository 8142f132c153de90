package server_test

import (
	"net/http"
	"testing"
)

func TestApiInformationNeedsNoToken(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	var info struct{ Version, Build string }
	ts.Expect(t, http.StatusOK, nil, "GET", "/", nil).Decode(t, &info)
	if info.Version == "" {
		t.Fatal("no version")
	}
}

func TestAuthenticatedUser(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	m := ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil).Map(t)
	if m["id"] != alice.ID || m["email"] != "alice@example.com" || m["displayName"] != "Alice" {
		t.Fatalf("user = %v", m)
	}
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", "/user", nil)
	})
	t.Run("BadToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, &testUser{Token: "gb_api_nope"}, "GET", "/user", nil)
	})
}
