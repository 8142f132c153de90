package server

import (
	"bytes"
	"context"
	"net/url"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Conversations (seed §2.18, §4.14): admins ingest support conversations; members with the read
// role read them, the issues the analysis job found in them and the clusters grouping those.

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): ListConversations,
// ListConversationsIssues and ListConversationsIssuesClusters (and the three Get…ById) check the
// read role, make one store call and convert.

// ingestSource is the source a caller's conversations are filed under. Users' tokens ingest as
// "email"; integration installation tokens, once quire has them, ingest as
// "integration:{integration}:{installation}".
func ingestSource(ctx context.Context) string { return "email" }

// IngestConversation takes one conversation or an array of them (0.146.0's oneOf); the array is
// stored in one transaction, so an item the validator refuses (it names the item's index) or a
// store failure leaves nothing stored.
func (s *Server) IngestConversation(ctx context.Context, req gen.IngestConversationRequestObject) (gen.IngestConversationResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	items, err := ingestItems(req.Body)
	if err != nil {
		return nil, err
	}
	source := ingestSource(ctx)
	ins := make([]store.ConversationInput, len(items))
	for i, b := range items {
		ins[i] = toStoreConversationInput(source, b)
	}
	if err := s.Store.IngestConversations(ctx, req.OrganizationId, ins...); err != nil {
		return nil, err
	}
	if s.WakeJobs != nil && len(ins) > 0 {
		s.WakeJobs(store.ConversationAnalysisDelay + 100*time.Millisecond)
	}
	return gen.IngestConversation204Response{}, nil
}

// ingestItems reads the body's oneOf: an array is a list, anything else one conversation.
func ingestItems(body *gen.IngestConversationRequest) ([]gen.ConversationInput, error) {
	raw, err := body.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		return body.AsConversationInputList()
	}
	one, err := body.AsConversationInput()
	if err != nil {
		return nil, err
	}
	return []gen.ConversationInput{one}, nil
}

func toStoreConversationInput(source string, b gen.ConversationInput) store.ConversationInput {
	in := store.ConversationInput{ID: b.Id, Source: source, Subject: b.Subject, Parts: []store.ConversationPart{}}
	for _, p := range b.Parts {
		in.Parts = append(in.Parts, store.ConversationPart{Type: string(p.Type), Role: string(p.Role), Body: p.Body})
	}
	if m := b.Metadata; m != nil {
		in.URL = m.Url
		if m.Attributes != nil {
			in.Attributes = *m.Attributes
		}
		if m.CreatedAt != nil {
			t := m.CreatedAt.UTC()
			in.CreatedAt = &t
		}
	}
	return in
}

func (s *Server) ListConversations(ctx context.Context, req gen.ListConversationsRequestObject) (gen.ListConversationsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	list, err := s.Store.FindConversations(ctx, req.OrganizationId, req.Params.Source, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Conversation, len(list.Items))
	for i, c := range list.Items {
		items[i] = s.toAPIConversation(req.OrganizationId, c)
	}
	return gen.ListConversations200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetConversationById(ctx context.Context, req gen.GetConversationByIdRequestObject) (gen.GetConversationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	c, err := s.Store.FindConversation(ctx, req.OrganizationId, req.ConversationId)
	if err != nil {
		return nil, err
	}
	out := gen.GetConversationById200JSONResponse{Conversation: s.toAPIConversation(req.OrganizationId, c), Parts: []gen.ConversationPart{}}
	for _, p := range c.Parts {
		out.Parts = append(out.Parts, gen.ConversationPart{Type: gen.ConversationPartType(p.Type), Role: gen.ConversationPartRole(p.Role), Body: p.Body})
	}
	out.Metadata.Url = c.URL
	if len(c.Attributes) > 0 {
		attrs := c.Attributes
		out.Metadata.Attributes = &attrs
	}
	out.Metadata.CreatedAt = c.MetadataCreatedAt
	return out, nil
}

func (s *Server) ListConversationsIssues(ctx context.Context, req gen.ListConversationsIssuesRequestObject) (gen.ListConversationsIssuesResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	f := store.ConversationIssueFilter{Cluster: req.Params.Cluster, Conversation: req.Params.Conversation}
	list, err := s.Store.FindConversationIssues(ctx, req.OrganizationId, f, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.ConversationIssueWithConversation, len(list.Items))
	for i, iw := range list.Items {
		items[i] = s.toAPIIssueWithConversation(req.OrganizationId, iw)
	}
	return gen.ListConversationsIssues200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetConversationIssueById(ctx context.Context, req gen.GetConversationIssueByIdRequestObject) (gen.GetConversationIssueByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	iw, err := s.Store.FindConversationIssue(ctx, req.OrganizationId, req.IssueId)
	if err != nil {
		return nil, err
	}
	return gen.GetConversationIssueById200JSONResponse(s.toAPIIssueWithConversation(req.OrganizationId, iw)), nil
}

func (s *Server) ListConversationsIssuesClusters(ctx context.Context, req gen.ListConversationsIssuesClustersRequestObject) (gen.ListConversationsIssuesClustersResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	var f store.ConversationsClusterFilter
	if req.Params.OrderBy != nil {
		f.OrderBy = string(*req.Params.OrderBy)
	}
	f.Asc = req.Params.Order != nil && *req.Params.Order == gen.Asc
	if req.Params.Status != nil {
		f.Status = string(*req.Params.Status)
	}
	list, err := s.Store.FindConversationsClusters(ctx, req.OrganizationId, f, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.ConversationsIssuesCluster, len(list.Items))
	for i, k := range list.Items {
		items[i] = s.toAPICluster(req.OrganizationId, k)
	}
	return gen.ListConversationsIssuesClusters200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetConversationsIssuesCluster(ctx context.Context, req gen.GetConversationsIssuesClusterRequestObject) (gen.GetConversationsIssuesClusterResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	k, err := s.Store.FindConversationsCluster(ctx, req.OrganizationId, req.ClusterId)
	if err != nil {
		return nil, err
	}
	return gen.GetConversationsIssuesCluster200JSONResponse(s.toAPICluster(req.OrganizationId, k)), nil
}

func (s *Server) toAPIConversation(orgID string, c *store.Conversation) gen.Conversation {
	out := gen.Conversation{
		Object: gen.ConversationObjectConversation, Id: c.ID, Subject: c.Subject, Source: c.Source,
		CreatedAt: c.CreatedAt, ProcessedAt: c.ProcessedAt,
	}
	out.Urls.Location = s.apiURL("/orgs/" + url.PathEscape(orgID) + "/conversations/" + url.PathEscape(c.ID))
	// The source's link is the metadata URL when it is an absolute http(s) URL.
	if c.URL != nil {
		if u, err := url.Parse(*c.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			src := u.String()
			out.Urls.Source = &src
		}
	}
	return out
}

func (s *Server) toAPIIssueWithConversation(orgID string, iw *store.IssueWithConversation) gen.ConversationIssueWithConversation {
	is := iw.Issue
	out := gen.ConversationIssueWithConversation{Conversation: s.toAPIConversation(orgID, iw.Conversation)}
	out.Issue = gen.ConversationIssue{
		Object: gen.ConversationIssueObjectConversationIssue, Id: is.ID, Title: is.Title, Summary: is.Summary,
		CreatedAt: is.CreatedAt, IngestedAt: is.IngestedAt, Conversation: is.Conversation, Cluster: is.Cluster,
	}
	out.Issue.Urls.Location = s.apiURL("/orgs/" + url.PathEscape(orgID) + "/conversations-issues/" + url.PathEscape(is.ID))
	return out
}

func (s *Server) toAPICluster(orgID string, k *store.ConversationsCluster) gen.ConversationsIssuesCluster {
	out := gen.ConversationsIssuesCluster{
		Object: gen.ConversationsIssuesClusterObjectIssuesCluster, Id: k.ID, Label: k.Label, Icon: k.Icon,
		Summary: k.Summary, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt,
		Sources: map[string]int{}, WeeklyPulse: k.WeeklyPulse[:],
	}
	for src, n := range k.Sources {
		out.Sources[src] = n
	}
	out.Stats.Issues, out.Stats.Conversations = k.Issues, k.Conversations
	path := "/orgs/" + url.PathEscape(orgID) + "/conversations-clusters/" + url.PathEscape(k.ID)
	out.Urls.Location = s.apiURL(path)
	out.Urls.App = s.appURL(path)
	return out
}
