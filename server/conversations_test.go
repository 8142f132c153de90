package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

const v146 = "0.146.0"

// userMsg is a conversation part written by the user.
func userMsg(body string) map[string]any {
	return map[string]any{"type": "message", "role": "user", "body": body}
}

// convIngest ingests a conversation as u and expects 204.
func convIngest(t *testing.T, ts *testServer, u *testUser, orgID string, body map[string]any) {
	t.Helper()
	r := ts.Expect(t, http.StatusNoContent, u, "POST", "/orgs/"+orgID+"/conversations", body)
	if len(r.Body) != 0 {
		t.Fatalf("ingest answered a body: %s", r.Body)
	}
}

// convAnalyse lets the analysis delay pass and runs the due jobs, as the runner would.
func convAnalyse(t *testing.T, ts *testServer) int {
	t.Helper()
	ts.Clock.Advance(store.ConversationAnalysisDelay + time.Second)
	n, err := ts.Runner.RunDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// convRead GETs a conversations read of an organization (path under it, with its query) as u,
// checks the answer against the public spec's operation op and decodes it.
func convRead[T any](t *testing.T, ts *testServer, u *testUser, orgID, path, op string) T {
	t.Helper()
	r := ts.Expect(t, http.StatusOK, u, "GET", "/orgs/"+orgID+path, nil)
	wantPublic(t, v146, op, r)
	var v T
	r.Decode(t, &v)
	return v
}

func convIssues(t *testing.T, ts *testServer, u *testUser, orgID, query string) gen.ConversationIssueList {
	t.Helper()
	return convRead[gen.ConversationIssueList](t, ts, u, orgID, "/conversations-issues"+query, "listConversationsIssues")
}

func convClusters(t *testing.T, ts *testServer, u *testUser, orgID, query string) gen.ConversationsIssuesClusterList {
	t.Helper()
	return convRead[gen.ConversationsIssuesClusterList](t, ts, u, orgID, "/conversations-clusters"+query, "listConversationsIssuesClusters")
}

func convList(t *testing.T, ts *testServer, u *testUser, orgID, query string) gen.ConversationList {
	t.Helper()
	return convRead[gen.ConversationList](t, ts, u, orgID, "/conversations"+query, "listConversations")
}

var (
	billingTexts = []string{
		"We were charged twice for our subscription this month, please refund the duplicate invoice charge.",
		"Our invoice shows the wrong amount, the billing charge for the subscription is double.",
		"The credit card payment failed and the invoice for our subscription is unpaid.",
	}
	pdfTexts = []string{
		"The PDF export is missing all the images when I export the space to PDF.",
		"Exporting to PDF drops the images, the exported PDF has blank pages.",
	}
)

// TestConversationsIngestAnalyseAndRead: ingestion answers 204 and queues one analysis however
// many conversations arrive; the job finds issues and groups them; every read answers what the
// public spec describes.
func TestConversationsIngestAnalyseAndRead(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	created := time.Date(2025, 12, 30, 8, 0, 0, 0, time.UTC)
	convIngest(t, ts, alice, org.Id, map[string]any{
		"id": "ticket-1", "subject": "Charged twice",
		"parts":    []any{userMsg(billingTexts[0]), map[string]any{"type": "message", "role": "team-member", "body": "Sorry! Refunded."}},
		"metadata": map[string]any{"url": "https://help.acme.test/t/1", "attributes": map[string]any{"plan": "pro"}, "createdAt": created},
	})
	for i, text := range append(billingTexts[1:], pdfTexts...) {
		convIngest(t, ts, alice, org.Id, map[string]any{"id": fmt.Sprintf("ticket-%d", i+2), "parts": []any{userMsg(text)}})
	}
	convIngest(t, ts, alice, org.Id, map[string]any{"id": "thanks", "parts": []any{userMsg("Thanks, all good now!")}, "metadata": map[string]any{"url": "not a url"}})
	if n, _ := ts.Store.PendingJobs(context.Background()); n[store.JobAnalyseConversations] != 1 {
		t.Fatalf("pending analysis jobs: %v, want one for six ingestions", n)
	}

	// Before the analysis: conversations, no issues, no clusters.
	l := convList(t, ts, alice, org.Id, "")
	if l.Count != 6 || len(l.Items) != 6 {
		t.Fatalf("conversations: %d (%d items)", l.Count, len(l.Items))
	}
	for _, c := range l.Items {
		if c.ProcessedAt != nil || c.Source != "email" || c.Object != gen.ConversationObjectConversation {
			t.Fatalf("conversation before analysis: %+v", c)
		}
	}
	if n := convIssues(t, ts, alice, org.Id, "").Count; n != 0 {
		t.Fatalf("%d issues before the analysis", n)
	}

	if n := convAnalyse(t, ts); n != 1 {
		t.Fatalf("ran %d jobs, want 1", n)
	}
	if n, _ := ts.Store.PendingJobs(context.Background()); n[store.JobAnalyseConversations] != 0 {
		t.Fatalf("pending analysis jobs after the run: %v", n)
	}

	// getConversationById: parts, metadata, urls.
	cw := convRead[gen.ConversationWithParts](t, ts, alice, org.Id, "/conversations/ticket-1", "getConversationById")
	if cw.Conversation.Id != "ticket-1" || *cw.Conversation.Subject != "Charged twice" || !cw.Conversation.CreatedAt.Equal(created) ||
		cw.Conversation.ProcessedAt == nil || *cw.Conversation.Urls.Source != "https://help.acme.test/t/1" ||
		cw.Conversation.Urls.Location != testBaseURL+"/v1/orgs/"+org.Id+"/conversations/ticket-1" {
		t.Fatalf("conversation %+v", cw.Conversation)
	}
	if len(cw.Parts) != 2 || cw.Parts[1].Role != gen.ConversationPartRoleTeamMember || cw.Parts[0].Body != billingTexts[0] {
		t.Fatalf("parts %+v", cw.Parts)
	}
	if (*cw.Metadata.Attributes)["plan"] != "pro" || *cw.Metadata.Url != "https://help.acme.test/t/1" || !cw.Metadata.CreatedAt.Equal(created) {
		t.Fatalf("metadata %+v", cw.Metadata)
	}
	cw = getJSON[gen.ConversationWithParts](t, ts, alice, "/orgs/"+org.Id+"/conversations/thanks")
	if cw.Conversation.Urls.Source != nil || *cw.Metadata.Url != "not a url" {
		t.Fatalf("a metadata url that is no URL: %+v %+v", cw.Conversation.Urls, cw.Metadata)
	}
	ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/conversations/nope", nil)

	// Issues: one per topical conversation, none from chatter; billing and PDF apart.
	issues := convIssues(t, ts, alice, org.Id, "")
	if issues.Count != 5 {
		t.Fatalf("%d issues, want 5", issues.Count)
	}
	clusterOf := map[string]string{}
	for _, iw := range issues.Items {
		is := iw.Issue
		if is.Conversation != iw.Conversation.Id || is.Title == "" || is.Summary == "" || is.Cluster == "" ||
			is.Urls.Location != testBaseURL+"/v1/orgs/"+org.Id+"/conversations-issues/"+is.Id {
			t.Fatalf("issue %+v", iw)
		}
		clusterOf[is.Conversation] = is.Cluster
	}
	billing, pdf := clusterOf["ticket-1"], clusterOf["ticket-4"]
	if billing == pdf || clusterOf["ticket-2"] != billing || clusterOf["ticket-3"] != billing || clusterOf["ticket-5"] != pdf {
		t.Fatalf("clusters by conversation: %v", clusterOf)
	}
	one := convRead[gen.ConversationIssueWithConversation](t, ts, alice, org.Id, "/conversations-issues/"+issues.Items[0].Issue.Id, "getConversationIssueById")
	if !reflect.DeepEqual(one, issues.Items[0]) {
		t.Fatalf("get issue %+v, listed %+v", one, issues.Items[0])
	}
	ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/conversations-issues/iss_0000", nil)

	// Clusters: described, counted.
	k := convRead[gen.ConversationsIssuesCluster](t, ts, alice, org.Id, "/conversations-clusters/"+billing, "getConversationsIssuesCluster")
	if k.Stats.Issues != 3 || k.Stats.Conversations != 3 || k.Sources["email"] != 3 || k.Icon != "credit-card" ||
		!strings.Contains(strings.ToLower(k.Label), "invoice") && !strings.Contains(strings.ToLower(k.Label), "charge") ||
		k.Summary == "" || len(k.WeeklyPulse) != 13 || k.Object != gen.ConversationsIssuesClusterObjectIssuesCluster ||
		k.Urls.App != testBaseURL+"/app/orgs/"+org.Id+"/conversations-clusters/"+billing {
		t.Fatalf("billing cluster %+v", k)
	}
	ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/conversations-clusters/cl_999999", nil)
	if got := convClusters(t, ts, alice, org.Id, ""); got.Count != 2 {
		t.Fatalf("%d clusters, want 2", got.Count)
	}
}

// TestConversationsFiltersAndPaging: every list's filters, its pages, and its limits.
func TestConversationsFiltersAndPaging(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	texts := append(append([]string{}, billingTexts...), pdfTexts...)
	for i := 0; i < 12; i++ {
		convIngest(t, ts, alice, org.Id, map[string]any{"id": fmt.Sprintf("c%02d", i), "parts": []any{userMsg(texts[i%len(texts)])}})
		ts.Clock.Advance(time.Minute)
	}
	convAnalyse(t, ts)
	base := "/orgs/" + org.Id

	// Conversations: newest first, pages of 5, the source filter.
	var ids []string
	q := "?limit=5"
	for {
		l := convList(t, ts, alice, org.Id, q)
		if l.Count != 12 || len(l.Items) > 5 {
			t.Fatalf("page %q: count %d, %d items", q, l.Count, len(l.Items))
		}
		for _, c := range l.Items {
			ids = append(ids, c.Id)
		}
		if l.Next == nil {
			break
		}
		q = "?limit=5&page=" + url.QueryEscape(l.Next.Page)
	}
	if len(ids) != 12 || ids[0] != "c11" || ids[11] != "c00" {
		t.Fatalf("paged conversations %v", ids)
	}
	if l := convList(t, ts, alice, org.Id, "?source=email"); l.Count != 12 {
		t.Fatalf("source=email: %d", l.Count)
	}
	if l := convList(t, ts, alice, org.Id, "?source="+url.QueryEscape("integration:intercom:x")); l.Count != 0 || len(l.Items) != 0 {
		t.Fatalf("another source: %d", l.Count)
	}

	// Issues: by cluster, by conversation, paged.
	all := convIssues(t, ts, alice, org.Id, "?limit=1000")
	if all.Count != 12 {
		t.Fatalf("%d issues", all.Count)
	}
	byCluster := map[string][]string{}
	for _, iw := range all.Items {
		byCluster[iw.Issue.Cluster] = append(byCluster[iw.Issue.Cluster], iw.Issue.Id)
	}
	for cl, want := range byCluster {
		var got []string
		q := "?limit=2&cluster=" + cl
		for {
			l := convIssues(t, ts, alice, org.Id, q)
			if l.Count != len(want) {
				t.Fatalf("cluster %s: count %d, want %d", cl, l.Count, len(want))
			}
			for _, iw := range l.Items {
				got = append(got, iw.Issue.Id)
			}
			if l.Next == nil {
				break
			}
			q = "?limit=2&cluster=" + cl + "&page=" + url.QueryEscape(l.Next.Page)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("cluster %s paged %v, want %v", cl, got, want)
		}
	}
	if l := convIssues(t, ts, alice, org.Id, "?conversation=c03"); l.Count != 1 || l.Items[0].Conversation.Id != "c03" {
		t.Fatalf("conversation=c03: %+v", l)
	}

	// Clusters: orders and pages.
	clusters := convClusters(t, ts, alice, org.Id, "?orderBy=issues")
	n := clusters.Count
	if n < 2 || len(clusters.Items) != n {
		t.Fatalf("%d clusters", n)
	}
	for i := 1; i < n; i++ {
		if clusters.Items[i-1].Stats.Issues < clusters.Items[i].Stats.Issues {
			t.Fatalf("by issues, descending: %d before %d", clusters.Items[i-1].Stats.Issues, clusters.Items[i].Stats.Issues)
		}
	}
	asc := convClusters(t, ts, alice, org.Id, "?orderBy=issues&order=asc")
	for i := 1; i < n; i++ {
		if asc.Items[i-1].Stats.Issues > asc.Items[i].Stats.Issues {
			t.Fatalf("by issues, ascending: %d before %d", asc.Items[i-1].Stats.Issues, asc.Items[i].Stats.Issues)
		}
	}
	for _, order := range []string{"updatedAt", "issues", "conversations", "tasksTotal", "tasksBacklog", "tasksStarted"} {
		for _, dir := range []string{"asc", "desc"} {
			whole := convClusters(t, ts, alice, org.Id, "?orderBy="+order+"&order="+dir)
			var paged []string
			q := "?limit=1&orderBy=" + order + "&order=" + dir
			for {
				l := convClusters(t, ts, alice, org.Id, q)
				for _, k := range l.Items {
					paged = append(paged, k.Id)
				}
				if l.Next == nil {
					break
				}
				q = "?limit=1&orderBy=" + order + "&order=" + dir + "&page=" + url.QueryEscape(l.Next.Page)
			}
			var want []string
			for _, k := range whole.Items {
				want = append(want, k.Id)
			}
			if whole.Count != n || !reflect.DeepEqual(paged, want) {
				t.Fatalf("orderBy=%s order=%s: paged %v, whole %v", order, dir, paged, want)
			}
		}
	}
	if l := convClusters(t, ts, alice, org.Id, "?status=pending"); l.Count != 0 {
		t.Fatalf("pending clusters after the analysis: %d", l.Count)
	}

	// Bad parameters name themselves.
	for _, q := range []string{
		"/conversations?limit=0", "/conversations?limit=1001", "/conversations?page=nonsense",
		"/conversations-issues?page=nonsense", "/conversations-clusters?orderBy=size",
		"/conversations-clusters?status=done", "/conversations-clusters?order=up",
	} {
		r := ts.Expect(t, http.StatusBadRequest, alice, "GET", base+q, nil)
		param := strings.TrimPrefix(strings.SplitN(strings.SplitN(q, "?", 2)[1], "=", 2)[0], "?")
		if msg := r.ErrorMessage(t); !strings.Contains(msg, param) {
			t.Errorf("%s: message %q does not name %s", q, msg, param)
		}
	}
}

// TestConversationsReingestion: the same id from the same source replaces the conversation and
// its issues keep their ids; the clusters it leaves are pending until the job runs.
func TestConversationsReingestion(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	for i, text := range append(append([]string{}, billingTexts...), pdfTexts...) {
		convIngest(t, ts, alice, org.Id, map[string]any{"id": fmt.Sprintf("t%d", i), "parts": []any{userMsg(text)}})
	}
	convAnalyse(t, ts)
	before := convIssues(t, ts, alice, org.Id, "?conversation=t0").Items[0].Issue
	pdfCluster := convIssues(t, ts, alice, org.Id, "?conversation=t3").Items[0].Issue.Cluster

	convIngest(t, ts, alice, org.Id, map[string]any{"id": "t0", "parts": []any{userMsg("The PDF export is missing images, the exported PDF is blank.")}})
	if l := convClusters(t, ts, alice, org.Id, "?status=pending"); l.Count != 1 || l.Items[0].Id != before.Cluster {
		t.Fatalf("pending clusters: %+v, want %s", l.Items, before.Cluster)
	}
	if l := convClusters(t, ts, alice, org.Id, "?status=analysing"); l.Count != 0 {
		t.Fatalf("analysing before the job started: %d", l.Count)
	}
	if l := convList(t, ts, alice, org.Id, ""); l.Count != 5 {
		t.Fatalf("re-ingestion added a conversation: %d", l.Count)
	}
	convAnalyse(t, ts)
	after := convIssues(t, ts, alice, org.Id, "?conversation=t0")
	if after.Count != 1 || after.Items[0].Issue.Id != before.Id || after.Items[0].Issue.Cluster != pdfCluster ||
		!after.Items[0].Issue.IngestedAt.After(before.IngestedAt) {
		t.Fatalf("re-ingested issue %+v, was %+v (PDF cluster %s)", after.Items, before, pdfCluster)
	}
	k := getJSON[gen.ConversationsIssuesCluster](t, ts, alice, "/orgs/"+org.Id+"/conversations-clusters/"+before.Cluster)
	if k.Stats.Issues != 2 {
		t.Fatalf("billing cluster has %d issues after one left", k.Stats.Issues)
	}
	if l := convClusters(t, ts, alice, org.Id, "?status=pending"); l.Count != 0 {
		t.Fatalf("pending after the job: %d", l.Count)
	}
}

// TestConversationsWeeklyPulse: 13 weekly counts ending with the week of the store's clock,
// recomputed as the clock moves.
func TestConversationsWeeklyPulse(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	now := ts.Store.Now() // Friday 2 January 2026; the week began Monday 29 December
	for i, at := range []time.Time{
		now, time.Date(2025, 12, 29, 0, 0, 0, 0, time.UTC), // this week
		time.Date(2025, 12, 28, 23, 0, 0, 0, time.UTC), // last week
		time.Date(2025, 10, 6, 12, 0, 0, 0, time.UTC),  // twelve weeks before this Monday: the first entry
		time.Date(2025, 10, 5, 12, 0, 0, 0, time.UTC),  // thirteen weeks back: not counted
	} {
		convIngest(t, ts, alice, org.Id, map[string]any{"id": fmt.Sprintf("p%d", i), "parts": []any{userMsg(pdfTexts[i%2])},
			"metadata": map[string]any{"createdAt": at}})
	}
	convAnalyse(t, ts)
	l := convClusters(t, ts, alice, org.Id, "")
	if l.Count != 1 {
		t.Fatalf("%d clusters, want 1", l.Count)
	}
	want := make([]int, 13)
	want[0], want[11], want[12] = 1, 1, 2
	if !reflect.DeepEqual(l.Items[0].WeeklyPulse, want) {
		t.Fatalf("pulse %v, want %v", l.Items[0].WeeklyPulse, want)
	}
	ts.Clock.Advance(7 * 24 * time.Hour)
	want = make([]int, 13)
	want[10], want[11] = 1, 2
	k := getJSON[gen.ConversationsIssuesCluster](t, ts, alice, "/orgs/"+org.Id+"/conversations-clusters/"+l.Items[0].Id)
	if !reflect.DeepEqual(k.WeeklyPulse, want) {
		t.Fatalf("a week later the pulse is %v, want %v", k.WeeklyPulse, want)
	}
}

// TestConversationsDeterministic: the same conversations, ingested in another order and in
// another organization, give the same issues and the same grouping.
func TestConversationsDeterministic(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@acme.test", "Alice")
	texts := append(append([]string{}, billingTexts...), pdfTexts...)
	texts = append(texts, "Search results are slow and the search box never finds the page.", "Searching takes ages and finds nothing.")
	grouping := func(orgID string) [][]string {
		groups := map[string][]string{}
		for _, iw := range convIssues(t, ts, alice, orgID, "?limit=1000").Items {
			groups[iw.Issue.Cluster] = append(groups[iw.Issue.Cluster], iw.Issue.Id+" "+iw.Issue.Title)
		}
		var out [][]string
		for _, g := range groups {
			sort.Strings(g)
			out = append(out, g)
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
		return out
	}
	var results [][][]string
	for _, reverse := range []bool{false, true} {
		org := ts.MustCreateOrg(t, alice, fmt.Sprintf("Org %v", reverse))
		for i := range texts {
			j := i
			if reverse {
				j = len(texts) - 1 - i
			}
			convIngest(t, ts, alice, org.Id, map[string]any{"id": fmt.Sprintf("d%d", j), "parts": []any{userMsg(texts[j])}})
		}
		convAnalyse(t, ts)
		results = append(results, grouping(org.Id))
	}
	if len(results[0]) < 3 || !reflect.DeepEqual(results[0], results[1]) {
		t.Fatalf("groupings differ:\n%v\n%v", results[0], results[1])
	}
}
