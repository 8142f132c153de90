package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
)

func TestDemo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "quire.db")
	var out bytes.Buffer
	if err := demo([]string{"--db", db, "--base-url", "http://quire.test"}, &out); err != nil {
		t.Fatal(err)
	}
	token := regexp.MustCompile(`token  (\S+)`).FindStringSubmatch(out.String())
	siteURL := regexp.MustCompile(`the site +(http://quire.test/s/\S+) +\(published\)`).FindStringSubmatch(out.String())
	if token == nil || siteURL == nil || !strings.Contains(out.String(), "http://quire.test/v1/orgs/") {
		t.Fatalf("output:\n%s", out.String())
	}

	ctx := context.Background()
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	user, _, err := st.FindUserByToken(ctx, token[1])
	if err != nil || user.Email != demoEmail {
		t.Fatalf("the token printed is not the demo user's: %v", err)
	}
	orgs, err := st.FindOrganizationsForUser(ctx, user.ID, store.Page{Limit: 10})
	if err != nil || len(orgs.Items) != 1 {
		t.Fatalf("organizations: %v %v", orgs.Items, err)
	}
	org := orgs.Items[0]
	spaces, err := st.FindSpaces(ctx, org.ID, false, nil, store.Page{Limit: 10})
	if err != nil || len(spaces.Items) != 2 {
		t.Fatalf("spaces: %v %v", spaces.Items, err)
	}
	handbook := spaces.Items[0]
	if handbook.Title != "Handbook" || handbook.ChangeRequestsOpen != 1 {
		t.Fatalf("handbook: %+v", handbook)
	}
	rev, err := st.FindRevision(ctx, handbook.ID, handbook.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	for _, p := range rev.Pages {
		paths = append(paths, p.Path)
	}
	if strings.Join(paths, " ") != "welcome getting-started getting-started/install getting-started/configure faq" {
		t.Errorf("pages: %v", paths)
	}
	files, err := st.FindAllFiles(ctx, rev.ID)
	if err != nil || len(files) != 1 || files[0].ContentType != "image/png" || files[0].Width == nil {
		t.Fatalf("files: %v %v", files, err)
	}
	_, stats, err := st.FindLinks(ctx, rev.ID, store.LinkFilter{}, store.Page{Limit: 50})
	if err != nil || stats.Total < 5 || stats.Broken != 0 {
		t.Errorf("links: %+v %v", stats, err)
	}
	crs, err := st.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: handbook.ID, Status: "open"}, store.Page{Limit: 10})
	if err != nil || len(crs.Items) != 1 {
		t.Fatalf("open change requests: %v %v", crs.Items, err)
	}
	cr := crs.Items[0]
	comments, err := st.FindComments(ctx, store.CommentScope{SpaceID: handbook.ID, ChangeRequestID: &cr.ID}, store.CommentFilter{}, store.Page{Limit: 10})
	if err != nil || len(comments.Items) != 1 || comments.Items[0].Replies != 1 {
		t.Errorf("change request comments: %+v %v", comments.Items, err)
	}
	spaceComments, err := st.FindComments(ctx, store.CommentScope{SpaceID: handbook.ID}, store.CommentFilter{}, store.Page{Limit: 10})
	if err != nil || len(spaceComments.Items) != 1 {
		t.Errorf("space comments: %+v %v", spaceComments.Items, err)
	}
	sites, err := st.FindSites(ctx, org.ID, store.SiteFilter{}, store.Page{Limit: 10})
	if err != nil || len(sites.Items) != 1 || !sites.Items[0].Published {
		t.Fatalf("sites: %+v %v", sites.Items, err)
	}
	sections, err := st.FindSiteSections(ctx, sites.Items[0].ID, store.Page{Limit: 10})
	if err != nil || len(sections.Items) != 2 {
		t.Errorf("sections: %+v %v", sections.Items, err)
	}

	// The token and the site's URL work against the server.
	srv := server.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), "http://quire.test", []byte("secret"))
	h, err := srv.Handler(server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mountWeb(srv, h)
	hs := httptest.NewServer(h)
	defer hs.Close()
	get := func(url, token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, strings.Replace(url, "http://quire.test", hs.URL, 1), nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	if code, body := get("http://quire.test/v1/orgs/"+org.ID+"/spaces", token[1]); code != 200 || !strings.Contains(body, "API guide") {
		t.Errorf("spaces through the API: %d %s", code, body)
	}
	// The site's URL printed is the published URL the API gives it (pages there are served by
	// the published-site views).
	if code, body := get("http://quire.test/v1/orgs/"+org.ID+"/sites/"+sites.Items[0].ID, token[1]); code != 200 ||
		!strings.Contains(body, `"published":"`+siteURL[1]+`"`) {
		t.Errorf("site through the API: %d %s", code, body)
	}
	if code, body := get("http://quire.test/files/"+files[0].SHA256+"/diagram.png", ""); code != 200 ||
		!strings.HasPrefix(body, "\x89PNG") {
		t.Errorf("the image: %d", code)
	}

	// A second run refuses.
	if err := demo([]string{"--db", db}, io.Discard); err == nil || !strings.Contains(err.Error(), "already has the demo") {
		t.Errorf("second run: %v", err)
	}
}
