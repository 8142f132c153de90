package storetest

import (
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// Run runs the contract's tests, each a subtest that logs the backend it ran against; they run in
// parallel (go test's -parallel at a time), each on the stores it opens.
func Run(t *testing.T, open Opener) {
	logged := func(t *testing.T, clock func() time.Time) store.Store {
		t.Helper()
		st := open(t, clock)
		t.Logf("backend: %s", st.Backend())
		return st
	}
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"Access", access},
		{"Levels", levels},
		{"Permissions", permissions},
		{"Paging", paging},
		{"ListCursors", listCursors},
		{"BatchMergeConflict", batchMergeConflict},
		{"PageTree", pageTree},
		{"PageKinds", pageKinds},
		{"ReusableContents", reusableContents},
		{"Links", links},
		{"LinksByPath", linksByPath},
		{"UpdateFromMain", updateFromMain},
		{"Reviews", reviews},
		{"Invites", invites},
		{"ContentInvites", contentInvites},
		{"TeamMembers", teamMembers},
		{"Comments", comments},
		{"Sites", sites},
		{"SiteStructureFields", siteStructureFields},
		{"SiteNewSpaces", siteNewSpaces},
		{"RateLimits", rateLimits},
		{"RevisionsAgainstModel", revisionsAgainstModel},
		{"Search", search},
		{"SearchIndexUpkeep", searchIndexUpkeep},
		{"SearchHits", searchHits},
		{"SearchAncestry", searchAncestry},
		{"SearchSectionsOfBatches", searchSectionsOfBatches},
		{"SearchEditedPages", searchEditedPages},
		{"Jobs", jobs},
		{"Purge", purge},
		{"Audit", audit},
		{"ConversationsIngest", conversationsIngest},
		{"ConversationsIngestMany", conversationsIngestMany},
		{"ConversationsAnalysis", conversationsAnalysis},
		{"Translations", translations},
		{"Glossary", glossary},
		{"GitSync", gitSync},
		{"ChangeRequestAt", changeRequestAt},
		{"FileDeletes", fileDeletes},
		{"ImportRuns", importRuns},
		{"PageAlternates", pageAlternates},
		{"RevisionReads", revisionReads},
		{"SiteRedirects", siteRedirects},
		{"SiteEvents", siteEvents},
		{"SiteRedirectWrites", siteRedirectWrites},
		{"PageFormerlyAt", pageFormerlyAt},
		{"SiteShareLinks", siteShareLinks},
		{"SiteCustomizations", siteCustomizations},
		{"SitePublishingAuth", sitePublishingAuth},
		{"SiteHostnameChecks", siteHostnameChecks},
		{"SiteNavigation", siteNavigation},
		{"CustomFonts", customFonts},
		{"UsersSharing", usersSharing},
		{"SAMLProviders", samlProviders},
		{"SAMLLogins", samlLogins},
		{"OpenAPISpecs", openAPISpecs},
		{"Integrations", integrations},
		{"InstallationLifecycle", installationLifecycle},
		{"Sessions", sessions},
		{"SpaceFields", spaceFields},
		{"TemplatesElsewhere", templatesElsewhere},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case has stores of its own
			tc.fn(t, logged)
		})
	}
}
