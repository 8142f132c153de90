package server_test

import (
	"testing"
)

// The rows of conversations: members with the read role read; only admins ingest.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// matrixConversation is a conversation of the matrix's organization, analysed: its issue and
// that issue's cluster. Made once per world, on first use.
type matrixConversation struct{ id, issue, cluster string }

var matrixConversations = map[*matrixWorld]matrixConversation{}

func (w *matrixWorld) conversation(t *testing.T) matrixConversation {
	t.Helper()
	if c, ok := matrixConversations[w]; ok {
		return c
	}
	convIngest(t, w.testServer, w.admin, w.org.Id, map[string]any{"id": "matrix", "parts": []any{userMsg(billingTexts[0])}})
	convAnalyse(t, w.testServer)
	is := convIssues(t, w.testServer, w.admin, w.org.Id, "?conversation=matrix").Items[0].Issue
	c := matrixConversation{id: "matrix", issue: is.Id, cluster: is.Cluster}
	matrixConversations[w] = c
	return c
}

func matrixConversationRows() []matrixRow {
	read := matrixWant{401, 401, 404, 200, 200, 200, 200}
	return []matrixRow{
		{"ingestConversation", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/conversations"), map[string]any{"id": w.name("c"), "parts": []any{userMsg("Search is slow.")}})
		}},
		{"listConversations", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations"), nil)
		}},
		{"getConversationById", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations/"+w.conversation(t).id), nil)
		}},
		{"listConversationsIssues", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations-issues"), nil)
		}},
		{"getConversationIssueById", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations-issues/"+w.conversation(t).issue), nil)
		}},
		{"listConversationsIssuesClusters", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations-clusters"), nil)
		}},
		{"getConversationsIssuesCluster", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/conversations-clusters/"+w.conversation(t).cluster), nil)
		}},
	}
}
