package server

import (
	"context"
	"errors"
	"sort"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The structure of a site: site spaces, sections and section groups. Access is the site's: the site
// must be the path organization's and the caller a member of it (else 404); reading needs the read
// role on the site, changing the create role (else 403): a member's role on a site is their
// organization role raised to the site's default level (siteRole). The site-space operations are
// per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): AddSpaceToSite,
// DeleteSiteSpaceById, UpdateSiteSpaceById and MoveSiteSpace resolve the site, make one store call
// and convert, as the section operations of sitesections.go do.

// roleOfSpace gives the role a converted site space's space carries its permissions for.
type roleOfSpace func(*store.Space) store.Role

func constRole(role store.Role) roleOfSpace { return func(*store.Space) store.Role { return role } }

// spaceRoles resolves the caller's role on the spaces of site spaces (collection levels are
// loaded at most once).
func spaceRoles(ctx context.Context, roles *access.ContentRoles, spaces []*store.SiteSpace) (roleOfSpace, error) {
	m := make(map[string]store.Role, len(spaces))
	for _, ss := range spaces {
		r, err := roles.Of(ctx, ss.Space.ID, ss.Space.DefaultLevel, ss.Space.ParentID)
		if err != nil {
			return nil, err
		}
		m[ss.Space.ID] = r
	}
	return func(sp *store.Space) store.Role { return m[sp.ID] }, nil
}

// structureSpaces lists the site spaces of a structure.
func structureSpaces(st *store.SiteStructure) []*store.SiteSpace {
	out := append([]*store.SiteSpace{}, st.RootSiteSpaces...)
	for _, sec := range st.Sections {
		out = append(out, sec.SiteSpaces...)
	}
	return out
}

// structureURL is the published URL of a section (ss nil) or of a site space in a section (sec
// nil: at the root); a default section or site space adds nothing to the path. nil while the site
// is not published.
func (s *Server) structureURL(site *store.Site, sec *store.SiteSection, ss *store.SiteSpace) *string {
	base := site.PublishedURL(s.BaseURL)
	if base == nil {
		return nil
	}
	u := *base
	if sec != nil && !sec.Default {
		u += "/" + sec.Path
	}
	if ss != nil && !ss.Default {
		u += "/" + ss.Path
	}
	u = site.WithShareKey(u)
	return &u
}

// toAPISiteSpace converts a site space with its space's permissions for role. Its published URL
// needs its section: for a site space in a section, convert the section (toAPISiteSection) or use
// siteSpaceAPI; here it is left out rather than wrong.
func (s *Server) toAPISiteSpace(site *store.Site, ss *store.SiteSpace, role store.Role) gen.SiteSpace {
	return s.siteSpaceAPI(site, nil, ss, constRole(role))
}

// siteSpaceAPI converts a site space of a section (nil: at the site root).
func (s *Server) siteSpaceAPI(site *store.Site, sec *store.SiteSection, ss *store.SiteSpace, roleOf roleOfSpace) gen.SiteSpace {
	out := gen.SiteSpace{
		Object:    gen.SiteSpaceObjectSiteSpace,
		Id:        ss.ID,
		Path:      ss.Path,
		Section:   ss.SectionID,
		Space:     s.toAPISpace(ss.Space, roleOf(ss.Space)),
		Title:     ss.DisplayTitle(),
		Default:   ss.Default,
		Condition: ss.Condition,
		Draft:     ss.Draft,
		Hidden:    &ss.Hidden,
	}
	if ss.PageID != nil {
		out.PageId = nullable.NewNullableWithValue(*ss.PageID)
	}
	if ss.SectionID == nil || sec != nil {
		out.Urls.Published = s.structureURL(site, sec, ss)
	}
	return out
}

// toAPISiteSection converts a section with its site spaces, their spaces' permissions for role.
func (s *Server) toAPISiteSection(site *store.Site, sec *store.SiteSection, role store.Role) gen.SiteSection {
	return s.siteSectionAPI(site, sec, constRole(role))
}

func (s *Server) siteSectionAPI(site *store.Site, sec *store.SiteSection, roleOf roleOfSpace) gen.SiteSection {
	out := gen.SiteSection{
		Object:       gen.SiteSectionObjectSiteSection,
		Id:           sec.ID,
		Title:        sec.Title,
		Description:  sec.Description,
		Default:      sec.Default,
		Path:         sec.Path,
		Condition:    sec.Condition,
		SectionGroup: sec.GroupID,
		Icon:         sec.Icon,
		Draft:        sec.Draft,
		SiteSpaces:   make([]gen.SiteSpace, 0, len(sec.SiteSpaces)),
	}
	if len(sec.LocalizedTitle) > 0 {
		l := gen.LocalizedString128(sec.LocalizedTitle)
		out.LocalizedTitle = &l
	}
	if len(sec.LocalizedDescription) > 0 {
		l := gen.LocalizedString256(sec.LocalizedDescription)
		out.LocalizedDescription = &l
	}
	for _, ss := range sec.SiteSpaces {
		out.SiteSpaces = append(out.SiteSpaces, s.siteSpaceAPI(site, sec, ss, roleOf))
	}
	out.Urls.Published = s.structureURL(site, sec, nil)
	return out
}

// toAPISiteSectionGroup converts a group with its children (sections and subgroups, in order)
// as the structure has them, so a caller may pass a structure it has filtered. The spaces of
// its site spaces carry a visitor's permissions (none).
func (s *Server) toAPISiteSectionGroup(site *store.Site, g *store.SiteSectionGroup, structure *store.SiteStructure) gen.SiteSectionGroup {
	return s.siteSectionGroupAPI(site, g, structure, constRole(store.RoleGuest))
}

func (s *Server) siteSectionGroupAPI(site *store.Site, g *store.SiteSectionGroup, st *store.SiteStructure, roleOf roleOfSpace) gen.SiteSectionGroup {
	out := gen.SiteSectionGroup{
		Object:       gen.SiteSectionGroupObjectSiteSectionGroup,
		Id:           g.ID,
		Title:        g.Title,
		SectionGroup: g.ParentID,
		Icon:         g.Icon,
		Draft:        g.Draft,
		Children:     []gen.SiteStructureEntry{},
		Sections:     []gen.SiteSection{},
	}
	if len(g.LocalizedTitle) > 0 {
		l := gen.LocalizedString128(g.LocalizedTitle)
		out.LocalizedTitle = &l
	}
	for _, c := range structureChildren(st, &g.ID) {
		entry, sections := s.structureEntry(site, c, st, roleOf)
		out.Sections = append(out.Sections, sections...)
		out.Children = append(out.Children, entry)
	}
	return out
}

// structureChild is a section, a group or an external link of a site's structure.
type structureChild struct {
	position float64
	sec      *store.SiteSection
	group    *store.SiteSectionGroup
	link     *store.SiteExternalLink
}

// structureChildren returns the sections, groups and external links directly under a group (nil: the top level)
// of a structure, in position order.
func structureChildren(st *store.SiteStructure, groupID *string) []structureChild {
	var out []structureChild
	for _, sec := range st.Sections {
		if store.EqualPtr(sec.GroupID, groupID) {
			out = append(out, structureChild{position: sec.Position, sec: sec})
		}
	}
	for _, g := range st.Groups {
		if store.EqualPtr(g.ParentID, groupID) {
			out = append(out, structureChild{position: g.Position, group: g})
		}
	}
	for _, l := range st.ExternalLinks {
		if store.EqualPtr(l.GroupID, groupID) {
			out = append(out, structureChild{position: l.Position, link: l})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].position < out[j].position })
	return out
}

// structureEntry converts a child of a structure, with the sections it holds (itself, or its
// group's, subgroups included).
func (s *Server) structureEntry(site *store.Site, c structureChild, st *store.SiteStructure, roleOf roleOfSpace) (gen.SiteStructureEntry, []gen.SiteSection) {
	// From* only fails when json.Marshal does, which these plain structs cannot make it.
	var entry gen.SiteStructureEntry
	if c.link != nil {
		_ = entry.FromSiteExternalLink(toAPISiteExternalLink(c.link))
		return entry, nil
	}
	if c.sec != nil {
		sec := s.siteSectionAPI(site, c.sec, roleOf)
		_ = entry.FromSiteSection(sec)
		return entry, []gen.SiteSection{sec}
	}
	sub := s.siteSectionGroupAPI(site, c.group, st, roleOf)
	_ = entry.FromSiteSectionGroup(sub)
	return entry, sub.Sections
}

// toAPISiteExternalLink converts an external link.
func toAPISiteExternalLink(l *store.SiteExternalLink) gen.SiteExternalLink {
	out := gen.SiteExternalLink{
		Object:       gen.SiteExternalLinkObjectSiteExternalLink,
		Id:           l.ID,
		Title:        l.Title,
		Description:  l.Description,
		Icon:         l.Icon,
		Url:          l.URL,
		SectionGroup: l.GroupID,
		Draft:        l.Draft,
		Condition:    l.Condition,
	}
	if len(l.LocalizedTitle) > 0 {
		t := gen.LocalizedString128(l.LocalizedTitle)
		out.LocalizedTitle = &t
	}
	if len(l.LocalizedDescription) > 0 {
		d := gen.LocalizedString256(l.LocalizedDescription)
		out.LocalizedDescription = &d
	}
	return out
}

// siteSpaceResponse converts a site space just read or written, with its section.
func (s *Server) siteSpaceResponse(ctx context.Context, site *store.Site, roles *access.ContentRoles, ss *store.SiteSpace) (gen.SiteSpace, error) {
	secs, err := s.Store.FindSiteSectionsOf(ctx, site.ID, []*store.SiteSpace{ss})
	if err != nil {
		return gen.SiteSpace{}, err
	}
	roleOf, err := spaceRoles(ctx, roles, []*store.SiteSpace{ss})
	if err != nil {
		return gen.SiteSpace{}, err
	}
	var sec *store.SiteSection
	if ss.SectionID != nil {
		sec = secs[*ss.SectionID]
	}
	return s.siteSpaceAPI(site, sec, ss, roleOf), nil
}

func (s *Server) siteSectionResponse(ctx context.Context, site *store.Site, roles *access.ContentRoles, sec *store.SiteSection) (gen.SiteSection, error) {
	roleOf, err := spaceRoles(ctx, roles, sec.SiteSpaces)
	if err != nil {
		return gen.SiteSection{}, err
	}
	return s.siteSectionAPI(site, sec, roleOf), nil
}

// groupResponse converts a group as the site's structure now has it.
func (s *Server) groupResponse(ctx context.Context, site *store.Site, roles *access.ContentRoles, id string) (gen.SiteSectionGroup, error) {
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return gen.SiteSectionGroup{}, err
	}
	roleOf, err := spaceRoles(ctx, roles, structureSpaces(st))
	if err != nil {
		return gen.SiteSectionGroup{}, err
	}
	for _, g := range st.Groups {
		if g.ID == id {
			return s.siteSectionGroupAPI(site, g, st, roleOf), nil
		}
	}
	return gen.SiteSectionGroup{}, store.Errorf(store.ENOTFOUND, "Section group not found.")
}

// conditionField reads a nullable condition of a request: whether it is given, and its value
// (nil removes it). A condition that does not parse is a 400 with the parser's message.
func conditionField(v nullable.Nullable[gen.Condition]) (bool, *string, error) {
	if !v.IsSpecified() {
		return false, nil, nil
	}
	c, err := v.Get()
	if err != nil {
		return true, nil, nil
	}
	if _, err := condition.Parse(c); err != nil {
		var se *condition.SyntaxError
		if errors.As(err, &se) {
			return false, nil, store.FieldErrorf("condition", "at column %d: %s", se.Pos, se.Msg)
		}
		return false, nil, store.FieldErrorf("condition", "%s", err.Error())
	}
	return true, &c, nil
}

// localizedField reads a localized text of a request (nil: not given); each key must be a
// language quire knows.
func localizedField[T ~map[string]string](field string, p *T) (store.Localized, error) {
	if p == nil {
		return nil, nil
	}
	v := map[string]string(*p)
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !gen.Language(k).Valid() {
			return nil, store.FieldErrorf(field+"."+k, "%q is not a language code (en, fr, pt-br…)", k)
		}
	}
	if v == nil {
		v = map[string]string{}
	}
	return store.Localized(v), nil
}

// siteSpaceSource reads the space a new site space or section publishes: an existing one
// (spaceId), or a new one (spaceId null) titled title, or after its template and filled with it.
// A template or a page with a new space's counterpart, or contentRefs (a new space has no
// files), are refused; creating a space takes the create role in the organization.
func (s *Server) siteSpaceSource(ctx context.Context, roles *access.ContentRoles, spaceID nullable.Nullable[string],
	tpl *gen.ApplySpaceTemplateRequest, title *string, pageGiven bool) (string, *store.NewSiteSpace, error) {
	if id, err := spaceID.Get(); err == nil {
		if tpl != nil {
			return "", nil, store.FieldErrorf("template", "a template fills a new space: give it with spaceId null")
		}
		return id, nil, nil
	}
	if pageGiven {
		return "", nil, store.FieldErrorf("pageId", "a new space has no pages yet: give a page only with a spaceId")
	}
	if !roles.OrgRole.AtLeast(store.RoleCreate) {
		return "", nil, forbidden("Creating a space needs the create role in the organization.")
	}
	n := &store.NewSiteSpace{CreatorID: access.Caller(ctx).ID}
	if title != nil {
		n.Title = *title
	}
	if tpl == nil {
		return "", n, nil
	}
	if p := tpl.Params; p != nil && p.ContentRefs != nil && len(*p.ContentRefs) > 0 {
		return "", nil, store.FieldErrorf("template.params.contentRefs", "a new space has no files for the template to use")
	}
	changes, err := store.TemplateChanges(tpl.Id, nil)
	if err != nil {
		var e *store.Error
		if errors.As(err, &e) && e.Field != "" {
			return "", nil, store.ErrorAt(e.Code, "template."+e.Field, "%s", e.Reason)
		}
		return "", nil, err
	}
	n.Title, n.Changes = store.TemplateTitle(tpl.Id), changes
	return "", n, nil
}

// nullableField reads a nullable string of a request: whether it is given, and its value.
func nullableField(v nullable.Nullable[string]) (bool, *string) {
	if !v.IsSpecified() {
		return false, nil
	}
	if c, err := v.Get(); err == nil {
		return true, &c
	}
	return true, nil
}

// Site spaces.

func (s *Server) ListSiteSpaces(ctx context.Context, req gen.ListSiteSpacesRequestObject) (gen.ListSiteSpacesResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindSiteSpaces(ctx, site.ID, store.SiteSpaceFilter{Default: req.Params.Default}, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	secs, err := s.Store.FindSiteSectionsOf(ctx, site.ID, list.Items)
	if err != nil {
		return nil, err
	}
	roleOf, err := spaceRoles(ctx, roles, list.Items)
	if err != nil {
		return nil, err
	}
	items := make([]gen.SiteSpace, 0, len(list.Items))
	for _, ss := range list.Items {
		var sec *store.SiteSection
		if ss.SectionID != nil {
			sec = secs[*ss.SectionID]
		}
		items = append(items, s.siteSpaceAPI(site, sec, ss, roleOf))
	}
	return gen.ListSiteSpaces200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) AddSpaceToSite(ctx context.Context, req gen.AddSpaceToSiteRequestObject) (gen.AddSpaceToSiteResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	c := store.SiteSpaceCreate{SectionID: b.SectionId, Title: b.Title, Draft: b.Draft != nil && *b.Draft}
	_, c.PageID = nullableField(b.PageId)
	if c.SpaceID, c.NewSpace, err = s.siteSpaceSource(ctx, roles, b.SpaceId, b.Template, b.Title, c.PageID != nil); err != nil {
		return nil, err
	}
	ss, err := s.Store.AddSiteSpace(ctx, site.ID, c)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSpaceResponse(ctx, site, roles, ss)
	if err != nil {
		return nil, err
	}
	return gen.AddSpaceToSite201JSONResponse(out), nil
}

func (s *Server) DeleteSiteSpaceById(ctx context.Context, req gen.DeleteSiteSpaceByIdRequestObject) (gen.DeleteSiteSpaceByIdResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSiteSpace(ctx, site.ID, req.SiteSpaceId); err != nil {
		return nil, err
	}
	return gen.DeleteSiteSpaceById204Response{}, nil
}

func (s *Server) UpdateSiteSpaceById(ctx context.Context, req gen.UpdateSiteSpaceByIdRequestObject) (gen.UpdateSiteSpaceByIdResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SiteSpaceUpdate{Path: b.Path, SpaceID: b.SpaceId, Hidden: b.Hidden, Draft: b.Draft}
	if upd.SetCondition, upd.Condition, err = conditionField(b.Condition); err != nil {
		return nil, err
	}
	upd.SetPageID, upd.PageID = nullableField(b.PageId)
	ss, err := s.Store.UpdateSiteSpace(ctx, site.ID, req.SiteSpaceId, upd)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSpaceResponse(ctx, site, roles, ss)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteSpaceById200JSONResponse(out), nil
}

func (s *Server) MoveSiteSpace(ctx context.Context, req gen.MoveSiteSpaceRequestObject) (gen.MoveSiteSpaceResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	var m store.SiteMove
	if p := req.Body.Position; p != nil {
		if p.Before != nil {
			m.Before = &p.Before.SiteSpace
		}
		if p.After != nil {
			m.After = &p.After.SiteSpace
		}
	}
	ss, err := s.Store.MoveSiteSpace(ctx, site.ID, req.SiteSpaceId, m)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSpaceResponse(ctx, site, roles, ss)
	if err != nil {
		return nil, err
	}
	return gen.MoveSiteSpace200JSONResponse(out), nil
}

// Sections.

// Section groups.

// siteSpaceOf is the first site space of a structure publishing a space (nil: none does).
func siteSpaceOf(st *store.SiteStructure, spaceID string) *store.SiteSpace {
	all := append([]*store.SiteSpace(nil), st.RootSiteSpaces...)
	for _, sec := range st.Sections {
		all = append(all, sec.SiteSpaces...)
	}
	for _, ss := range all {
		if ss.Space != nil && ss.Space.ID == spaceID {
			return ss
		}
	}
	return nil
}
