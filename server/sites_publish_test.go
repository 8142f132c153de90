package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestSitePublish(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	publish := func(t *testing.T, id, op string) gen.Site {
		t.Helper()
		got := sendJSON[gen.Site](t, w.testServer, http.StatusOK, w.admin, "POST", w.sitesPath(id)+"/"+op, nil)
		if again := w.getSite(t, w.admin, id); !reflect.DeepEqual(again, got) {
			t.Fatalf("%s answered %+v, GET answers %+v", op, got, again)
		}
		return got
	}

	got := publish(t, s.Id, "publish")
	if !got.Published || got.Urls.Published == nil || *got.Urls.Published != testBaseURL+"/s/"+s.Id {
		t.Fatalf("published: %+v", got)
	}
	if again := publish(t, s.Id, "publish"); !again.Published {
		t.Fatal("publishing twice unpublished")
	}
	got = publish(t, s.Id, "unpublish")
	if got.Published || got.Urls.Published != nil {
		t.Fatalf("unpublished: %+v", got)
	}
	if again := publish(t, s.Id, "unpublish"); again.Published {
		t.Fatal("unpublishing twice published")
	}

	t.Run("ShareLinkSitesCarryTheirShareKey", func(t *testing.T) {
		a := w.createSite(t, map[string]any{"title": "Secret A", "visibility": "share-link"})
		b := w.createSite(t, map[string]any{"title": "Secret B", "visibility": "share-link"})
		pa, pb := publish(t, a.Id, "publish"), publish(t, b.Id, "publish")
		prefix := testBaseURL + "/s/" + a.Id + "?share="
		if pa.Urls.Published == nil || !strings.HasPrefix(*pa.Urls.Published, prefix) || len(*pa.Urls.Published) < len(prefix)+20 {
			t.Fatalf("share-link url = %v", pa.Urls.Published)
		}
		keyA := strings.TrimPrefix(*pa.Urls.Published, prefix)
		keyB := strings.TrimPrefix(*pb.Urls.Published, testBaseURL+"/s/"+b.Id+"?share=")
		if keyA == keyB {
			t.Fatal("two sites share a share key")
		}
		if again := w.getSite(t, w.admin, a.Id); *again.Urls.Published != *pa.Urls.Published {
			t.Fatal("the share key changed between reads")
		}
		// Made public, the site's URL drops the key.
		if got := w.patchSite(t, a.Id, map[string]any{"visibility": "public"}); *got.Urls.Published != testBaseURL+"/s/"+a.Id {
			t.Fatalf("public url = %s", *got.Urls.Published)
		}
	})

	t.Run("MissingSiteIs404", func(t *testing.T) {
		w.wantError(t, http.StatusNotFound, w.admin, "POST", w.sitesPath("nope")+"/publish", nil, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "POST", w.sitesPath("nope")+"/unpublish", nil, "Site not found.")
	})
}

func TestSiteDelete(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	creator := w.memberWith(t, "create")
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
	s := w.createSite(t, map[string]any{"title": "Docs", "spaces": []string{sp.Id}})

	w.Expect(t, http.StatusForbidden, creator, "DELETE", w.sitesPath(s.Id), nil)
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", w.sitesPath(s.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(s.Id), nil)
	w.wantError(t, http.StatusNotFound, w.admin, "GET", w.sitesPath(s.Id), nil, "Site not found.")
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(s.Id), nil)
	if l := w.listSites(t, "?space="+sp.Id); l.Count != 0 {
		t.Fatalf("a deleted site still publishes the space: %+v", l)
	}
	if l := w.listSites(t, ""); l.Count != 0 {
		t.Fatalf("sites after delete: %+v", l)
	}
	// The space itself stays.
	w.spaceAs(t, w.admin, sp.Id)
}

func TestSiteAccess(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	creator := w.memberWith(t, "create")
	s := w.createSite(t, map[string]any{"title": "Docs"})
	theirs := map[string]any{}
	their := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.outsider, "POST", "/orgs/"+w.other.Id+"/sites", theirs)

	type op struct {
		method, path string
		body         any
		write        bool
	}
	ops := func(siteID string) []op {
		p := w.sitesPath(siteID)
		return []op{
			{"GET", p, nil, false},
			{"PATCH", p, map[string]any{"title": "Renamed"}, true},
			{"POST", p + "/publish", nil, true},
			{"POST", p + "/unpublish", nil, true},
			{"GET", p + "/adaptive-schema", nil, false},
			{"PUT", p + "/adaptive-schema", map[string]any{"jsonSchema": validSiteSchema()}, true},
			{"GET", p + "/adaptive-schema/template-conditions", nil, false},
		}
	}

	t.Run("OutsiderGets404", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.wantError(t, http.StatusNotFound, w.outsider, o.method, o.path, o.body, "Site not found.")
		}
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.sitesPath(""), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", w.sitesPath(""), map[string]any{})
		w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", w.sitesPath(s.Id), nil)
		w.getSite(t, w.admin, s.Id)
	})

	t.Run("AnotherOrganizationsSiteUnderThisOrganizationIs404", func(t *testing.T) {
		for _, o := range ops(their.Id) {
			w.wantError(t, http.StatusNotFound, w.admin, o.method, o.path, o.body, "Site not found.")
		}
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(their.Id), nil)
		w.Expect(t, http.StatusOK, w.outsider, "GET", "/orgs/"+w.other.Id+"/sites/"+their.Id, nil)
	})

	t.Run("ReadMemberReadsButCannotWrite", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			if o.write {
				w.wantError(t, http.StatusForbidden, w.reader, o.method, o.path, o.body, "This needs the create role on this site.")
			} else {
				w.Expect(t, http.StatusOK, w.reader, o.method, o.path, o.body)
			}
		}
		if l := w.Expect(t, http.StatusOK, w.reader, "GET", w.sitesPath(""), nil).Map(t); l["count"] != float64(1) {
			t.Fatalf("reader's list: %v", l)
		}
		w.wantError(t, http.StatusForbidden, w.reader, "POST", w.sitesPath(""), map[string]any{}, "This needs the create role in the organization.")
		w.wantError(t, http.StatusForbidden, w.reader, "DELETE", w.sitesPath(s.Id), nil, "This needs the admin role on this site.")
		if got := w.getSite(t, w.admin, s.Id); got.Title != "Docs" {
			t.Fatalf("a refused write changed the site: %+v", got)
		}
	})

	t.Run("CreateMemberWritesButCannotDelete", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusOK, creator, o.method, o.path, o.body)
		}
		w.wantError(t, http.StatusForbidden, creator, "DELETE", w.sitesPath(s.Id), nil, "This needs the admin role on this site.")
	})

	// A guest granted nothing on the site is not shown it; creating sites needs a role.
	t.Run("GuestGets404", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusNotFound, w.guest, o.method, o.path, o.body)
		}
		if l := getJSON[gen.SiteList](t, w.testServer, w.guest, w.sitesPath("")); l.Count != 0 {
			t.Fatalf("a guest granted nothing lists %d sites", l.Count)
		}
		w.Expect(t, http.StatusForbidden, w.guest, "POST", w.sitesPath(""), map[string]any{})
		// A site the guest is not shown is, to them, one that does not exist: deleting it is 204
		// and deletes nothing.
		w.Expect(t, http.StatusNoContent, w.guest, "DELETE", w.sitesPath(s.Id), nil)
		w.Expect(t, http.StatusOK, w.admin, "GET", w.sitesPath(s.Id), nil)
	})

	t.Run("NoTokenGets401", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusUnauthorized, nil, o.method, o.path, o.body)
		}
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.sitesPath(""), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "POST", w.sitesPath(""), map[string]any{})
		w.Expect(t, http.StatusUnauthorized, nil, "DELETE", w.sitesPath(s.Id), nil)
	})
}
