package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func searchSpace(t *testing.T, w *world, u *testUser, spaceID, query string, extra ...string) gen.SearchPageList {
	t.Helper()
	return getJSON[gen.SearchPageList](t, w.testServer, u, "/spaces/"+spaceID+"/search?query="+url.QueryEscape(query)+strings.Join(extra, ""))
}

func searchOrg(t *testing.T, w *world, u *testUser, orgID, query string, extra ...string) gen.SearchSpaceList {
	t.Helper()
	return getJSON[gen.SearchSpaceList](t, w.testServer, u, "/orgs/"+orgID+"/search?query="+url.QueryEscape(query)+strings.Join(extra, ""))
}

func searchTitles(l gen.SearchPageList) []string {
	var out []string
	for _, p := range l.Items {
		out = append(out, p.Title)
	}
	return out
}

const installMarkdown = "Quire runs anywhere.\n\n## Linux\n\nUse the tarball on Linux hosts.\n\n" +
	"## macOS\n\nHomebrew works on **macOS**.\n\n```sh\nbrew install quire\n```\n"

func TestSearchSpaceContent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")

	t.Run("NothingBeforeAMerge", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "Draft")
		w.apply(t, w.admin, sp.Id, cr.Id, insertMarkdown("Installation", installMarkdown, "i"))
		if l := searchSpace(t, w, w.admin, sp.Id, "tarball"); l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("a change request's content is searchable before its merge: %+v", l)
		}
	})

	ids := w.seed(t, sp.Id,
		"Installation", installMarkdown,
		"Configuration", "Set the token before you install anything.\n\n## Tokens\n\nTokens start with gb_api_.\n",
		"Troubleshooting", "When Windows refuses to start, check the logs.\n")

	t.Run("TitleMatchRanksFirst", func(t *testing.T) {
		l := searchSpace(t, w, w.reader, sp.Id, "installation")
		if l.Count < 1 || l.Items[0].Id != ids["Installation"] {
			t.Fatalf("titles = %v", searchTitles(l))
		}
	})
	t.Run("HitCarriesItsSection", func(t *testing.T) {
		l := searchSpace(t, w, w.admin, sp.Id, "tarball")
		if l.Count != 1 || len(l.Items) != 1 {
			t.Fatalf("results = %+v", l)
		}
		p := l.Items[0]
		if p.Id != ids["Installation"] || p.Path != "installation" || len(p.Sections) != 1 {
			t.Fatalf("page = %+v", p)
		}
		sec := p.Sections[0]
		if sec.Title != "Linux" || sec.Path != "installation#linux" || !strings.Contains(sec.Body, "tarball") {
			t.Fatalf("section = %+v", sec)
		}
		if !strings.HasSuffix(p.Urls.App, "/installation") || !strings.HasSuffix(sec.Urls.App, "/installation#linux") {
			t.Fatalf("urls = %v %v", p.Urls.App, sec.Urls.App)
		}
	})
	t.Run("MarkdownSyntaxIsNotText", func(t *testing.T) {
		l := searchSpace(t, w, w.admin, sp.Id, "homebrew macos")
		if l.Count != 1 || !strings.Contains(l.Items[0].Sections[0].Body, "Homebrew works on macOS") {
			t.Fatalf("results = %+v", l)
		}
	})
	t.Run("AllWordsFirstThenAny", func(t *testing.T) {
		// No page has both words: any of them is enough, and both pages come back.
		l := searchSpace(t, w, w.admin, sp.Id, "tarball windows")
		if l.Count != 2 {
			t.Fatalf("titles = %v", searchTitles(l))
		}
		// One page has both: only it.
		if l := searchSpace(t, w, w.admin, sp.Id, "token install"); l.Count != 1 || l.Items[0].Id != ids["Configuration"] {
			t.Fatalf("titles = %v", searchTitles(l))
		}
	})
	t.Run("PrefixOfTheLastWord", func(t *testing.T) {
		if l := searchSpace(t, w, w.admin, sp.Id, "troublesh"); l.Count != 1 || l.Items[0].Id != ids["Troubleshooting"] {
			t.Fatalf("titles = %v", searchTitles(l))
		}
	})
	t.Run("NoMatch", func(t *testing.T) {
		l := searchSpace(t, w, w.admin, sp.Id, "zeppelin")
		if l.Count != 0 || len(l.Items) != 0 || l.Next != nil {
			t.Fatalf("results = %+v", l)
		}
		if l := searchSpace(t, w, w.admin, sp.Id, "!!!"); l.Count != 0 {
			t.Fatalf("punctuation found %+v", l)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		// "the" is in every page.
		first := searchSpace(t, w, w.admin, sp.Id, "the", "&limit=2")
		if first.Count != 3 || len(first.Items) != 2 || first.Next == nil {
			t.Fatalf("first page = %+v", first)
		}
		second := searchSpace(t, w, w.admin, sp.Id, "the", "&limit=2&page="+url.QueryEscape(first.Next.Page))
		if len(second.Items) != 1 || second.Next != nil {
			t.Fatalf("second page = %+v", second)
		}
		seen := map[string]bool{}
		for _, p := range append(first.Items, second.Items...) {
			seen[p.Id] = true
		}
		if len(seen) != 3 {
			t.Fatalf("pages seen: %v", seen)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/spaces/"+sp.Id+"/search?query=the&page=bogus", nil)
	})
	t.Run("EditsReindex", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "Rewrite")
		w.apply(t, w.admin, sp.Id, cr.Id, editPage(ids["Troubleshooting"], "When the daemon hangs, restart it.\n"))
		w.merge(t, w.admin, sp.Id, cr.Id)
		if l := searchSpace(t, w, w.admin, sp.Id, "windows"); l.Count != 0 {
			t.Fatalf("old text still found: %v", searchTitles(l))
		}
		if l := searchSpace(t, w, w.admin, sp.Id, "daemon"); l.Count != 1 || l.Items[0].Id != ids["Troubleshooting"] {
			t.Fatalf("new text not found: %v", searchTitles(l))
		}
	})
	t.Run("QueryIsValidated", func(t *testing.T) {
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/spaces/"+sp.Id+"/search", nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/spaces/"+sp.Id+"/search?query="+strings.Repeat("a", 513), nil)
		w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/search?query="+strings.Repeat("a", 512), nil)
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/search?query=linux", nil)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", "/spaces/"+sp.Id+"/search?query=linux", nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/spaces/"+sp.Id+"/search?query=linux", nil)
	})
	t.Run("DeletedSpaceDropsOutUntilRestored", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+sp.Id, nil)
		if l := searchSpace(t, w, w.admin, sp.Id, "tarball"); l.Count != 0 {
			t.Fatalf("a deleted space answers %v", searchTitles(l))
		}
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/restore", nil)
		if l := searchSpace(t, w, w.admin, sp.Id, "tarball"); l.Count != 1 {
			t.Fatalf("a restored space answers %v", searchTitles(l))
		}
	})
}

func TestSearchOrganizationContent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	guides := w.MustCreateSpace(t, w.admin, w.org.Id, "Guides", "")
	api := w.MustCreateSpace(t, w.admin, w.org.Id, "API", "")
	w.seed(t, guides.Id, "Quick start", "The guide to your first space.\n", "Deploying", "A guide to servers.\n")
	w.seed(t, api.Id, "Tokens", "Every request carries a token; see the guide.\n")
	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Secrets", "")
	cr := w.create(t, w.outsider, theirs.Id, "Theirs")
	w.apply(t, w.outsider, theirs.Id, cr.Id, insertMarkdown("Hidden guide", "A guide nobody else may find.\n", "h"))
	w.merge(t, w.outsider, theirs.Id, cr.Id)

	t.Run("SpacesWithTheirPages", func(t *testing.T) {
		l := searchOrg(t, w, w.reader, w.org.Id, "guide")
		if l.Count != 2 || len(l.Items) != 2 {
			t.Fatalf("results = %+v", l)
		}
		bySpace := map[string]gen.SearchSpaceResult{}
		for _, s := range l.Items {
			bySpace[s.Id] = s
		}
		if g := bySpace[guides.Id]; g.Title != "Guides" || len(g.Pages) != 2 {
			t.Fatalf("guides = %+v", g)
		}
		if a := bySpace[api.Id]; a.Title != "API" || len(a.Pages) != 1 || a.Pages[0].Title != "Tokens" {
			t.Fatalf("api = %+v", a)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		first := searchOrg(t, w, w.admin, w.org.Id, "guide", "&limit=1")
		if first.Count != 2 || len(first.Items) != 1 || first.Next == nil {
			t.Fatalf("first = %+v", first)
		}
		second := searchOrg(t, w, w.admin, w.org.Id, "guide", "&limit=1&page="+url.QueryEscape(first.Next.Page))
		if len(second.Items) != 1 || second.Items[0].Id == first.Items[0].Id || second.Next != nil {
			t.Fatalf("second = %+v", second)
		}
	})
	t.Run("OnlyTheCallersReadableSpaces", func(t *testing.T) {
		if l := searchOrg(t, w, w.guest, w.org.Id, "guide"); l.Count != 0 {
			t.Fatalf("a guest finds %+v", l)
		}
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+w.org.Id+"/search?query=guide", nil)
		l := searchOrg(t, w, w.outsider, w.other.Id, "guide")
		if l.Count != 1 || l.Items[0].Id != theirs.Id {
			t.Fatalf("their own search = %+v", l)
		}
	})
	t.Run("TransferMovesTheIndex", func(t *testing.T) {
		adminOther := w.MustCreateOrg(t, w.admin, "Second")
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+api.Id+"/transfer", map[string]any{"organization": adminOther.Id})
		if l := searchOrg(t, w, w.admin, w.org.Id, "token"); l.Count != 0 {
			t.Fatalf("the old organization still finds %+v", l)
		}
		if l := searchOrg(t, w, w.admin, adminOther.Id, "token"); l.Count != 1 || l.Items[0].Id != api.Id {
			t.Fatalf("the new organization finds %+v", l)
		}
	})
	t.Run("DeletedSpacesDropOut", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+guides.Id, nil)
		if l := searchOrg(t, w, w.admin, w.org.Id, "guide"); l.Count != 0 {
			t.Fatalf("deleted space found: %+v", l)
		}
	})
}
