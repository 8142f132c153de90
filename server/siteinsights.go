package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// trackEventsInSiteById: what visitors do on a published site, as the renderer reports it (with
// the operator's token or the site's token), stored for the site's insights.

// siteEventSkew is how far from now a reported event's time may be.
const siteEventSkew = 5 * time.Minute

func (s *Server) TrackEventsInSiteById(ctx context.Context, req gen.TrackEventsInSiteByIdRequestObject) (gen.TrackEventsInSiteByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	now := s.Store.Now()
	events := make([]*store.SiteEvent, 0, len(req.Body.Events))
	for i, e := range req.Body.Events {
		at := now
		if e.Timestamp != nil {
			if d := e.Timestamp.Sub(now); d > siteEventSkew || d < -siteEventSkew {
				return nil, store.FieldErrorf(fmt.Sprintf("events.%d.timestamp", i), "must be within 5 minutes of now")
			}
			at = e.Timestamp.UTC()
		}
		payload, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		rating, err := feedbackRating(e.Feedback)
		if err != nil {
			return nil, store.FieldErrorf(fmt.Sprintf("events.%d.feedback.rating", i), "%s", err.Error())
		}
		events = append(events, &store.SiteEvent{Type: string(e.Type), SessionID: e.Session.SessionId, VisitorID: e.Session.VisitorId,
			SpaceID: nullableValue(e.Location.Space), PageID: nullableValue(e.Location.Page), OccurredAt: at, Payload: payload,
			URL: &e.Location.Url, URLPath: urlPath(e.Location.Url), SiteSectionID: nullableValue(e.Location.SiteSection),
			SiteSpaceID: nullableValue(e.Location.SiteSpace), SearchQuery: e.Query, FeedbackRating: rating})
	}
	if err := s.checkEventPlaces(ctx, site, events); err != nil {
		return nil, err
	}
	if err := s.Store.RecordSiteEvents(ctx, site.ID, events); err != nil {
		return nil, err
	}
	return gen.TrackEventsInSiteById204Response{}, nil
}

// checkEventPlaces refuses events about a space the site does not publish, or a page that space
// does not have (now): insights count only what visitors could have read. A batch holds at most
// 100 events (the request's maxItems), so this reads at most that many pages.
func (s *Server) checkEventPlaces(ctx context.Context, site *store.Site, events []*store.SiteEvent) error {
	var st *store.SiteStructure
	checked := map[string]bool{}
	for i, e := range events {
		if e.SpaceID == nil {
			if e.PageID != nil {
				return store.FieldErrorf(fmt.Sprintf("events.%d.location.space", i), "is needed with a page")
			}
			continue
		}
		key := *e.SpaceID + "/" + str(e.PageID)
		if checked[key] {
			continue
		}
		if st == nil {
			var err error
			if st, err = s.Store.FindSiteStructure(ctx, site.ID); err != nil {
				return err
			}
		}
		ss := siteSpaceOf(st, *e.SpaceID)
		if ss == nil {
			return store.FieldErrorf(fmt.Sprintf("events.%d.location.space", i), "is not a space this site publishes")
		}
		if e.PageID != nil {
			if _, err := s.Store.FindPage(ctx, ss.Space.RevisionID, *e.PageID); store.ErrorCode(err) == store.ENOTFOUND {
				return store.FieldErrorf(fmt.Sprintf("events.%d.location.page", i), "is not a page of the space")
			} else if err != nil {
				return err
			}
		}
		checked[key] = true
	}
	return nil
}

// feedbackRating is a feedback's rating (bad, ok or good), nil without one.
func feedbackRating(f *map[string]any) (*string, error) {
	if f == nil || (*f)["rating"] == nil {
		return nil, nil
	}
	r, _ := (*f)["rating"].(string)
	if r != "bad" && r != "ok" && r != "good" {
		return nil, fmt.Errorf("must be bad, ok or good")
	}
	return &r, nil
}

// urlPath is a URL's path ("/" when it has none), nil when it is not a URL.
func urlPath(raw string) *string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return &p
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// nullableValue is a nullable field's value, nil when absent or null.
func nullableValue(v nullable.Nullable[string]) *string {
	if x, err := v.Get(); err == nil {
		return &x
	}
	return nil
}
