package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/quire-docs/quire/store"
)

// demoEmail marks the demo: a database holding its user already has the demo.
const demoEmail = "demo@quire.example"

// demoResult is what the demo created.
type demoResult struct {
	Token, UserID, OrgID string
	Spaces               []*store.Space
	ChangeRequest        *store.ChangeRequest
	Site                 *store.Site
}

// demo creates a sample organization to look around in and prints how to reach it. It refuses
// to run twice on one database.
func demo(args []string, stdout io.Writer) error {
	cmd := newDBCommand("demo", dbUsage)
	baseURL := cmd.String("base-url", "http://127.0.0.1:8080", "the URL `quire serve` will be reached at, for the links printed")
	if err := cmd.parse(args); err != nil {
		return err
	}
	var res *demoResult
	if err := cmd.withStore(func(ctx context.Context, st store.Store) (err error) {
		res, err = createDemo(ctx, st)
		return err
	}); err != nil {
		return err
	}
	b := *baseURL
	fmt.Fprintf(stdout, `The demo is ready in %s.

  user   %s (%s)
  token  %s
  org    %s
  spaces %s (%s), %s (%s)

Start the server:   quire serve --db %s
Then open:
  the API           %s/v1/orgs/%s/spaces   (Authorization: Bearer %s)
  the site          %s/s/%s   (published)
  the open change request
                    %s/v1/spaces/%s/change-requests/%s

  curl -H 'Authorization: Bearer %s' %s/v1/user
`, *cmd.db, demoEmail, res.UserID, res.Token, res.OrgID,
		res.Spaces[0].Title, res.Spaces[0].ID, res.Spaces[1].Title, res.Spaces[1].ID, *cmd.db,
		b, res.OrgID, res.Token, b, res.Site.ID, b, res.ChangeRequest.SpaceID, res.ChangeRequest.ID, res.Token, b)
	return nil
}

func createDemo(ctx context.Context, st store.Store) (*demoResult, error) {
	u := &store.User{Email: demoEmail, DisplayName: "Demo User"}
	token, err := st.CreateUser(ctx, u)
	if store.ErrorCode(err) == store.ECONFLICT {
		return nil, errors.New("this database already has the demo (user " + demoEmail + "); its token was printed when it was made")
	} else if err != nil {
		return nil, err
	}
	res := &demoResult{Token: token, UserID: u.ID}
	org, err := st.CreateOrganization(ctx, "Quire Demo", u.ID)
	if err != nil {
		return nil, err
	}
	res.OrgID = org.ID
	handbook, err := demoSpace(ctx, st, org.ID, u.ID, "Handbook", handbookChanges())
	if err != nil {
		return nil, err
	}
	api, err := demoSpace(ctx, st, org.ID, u.ID, "API guide", []store.PageChange{
		{Type: "insert_page", Ref: ptr("overview"), Title: ptr("Overview"), SetInto: true,
			Markdown: ptr("Every call takes a bearer token. Start with [Authentication](/pages/auth).\n")},
		{Type: "insert_page", Ref: ptr("auth"), Title: ptr("Authentication"), SetInto: true, Description: ptr("Tokens and how to send them"),
			Markdown: ptr("Send `Authorization: Bearer <token>` with every request.\n")},
	})
	if err != nil {
		return nil, err
	}
	res.Spaces = []*store.Space{handbook, api}

	// A change request left open, with a comment and a reply on it.
	cr, err := st.CreateChangeRequest(ctx, handbook.ID, u.ID, "Add a troubleshooting page")
	if err != nil {
		return nil, err
	}
	crRes, err := st.UpdateChangeRequestContent(ctx, handbook.ID, cr.ID, u.ID, []store.PageChange{
		{Type: "insert_page", Ref: ptr("trouble"), Title: ptr("Troubleshooting"), SetInto: true,
			Markdown: ptr("If the server does not start, check that the port is free.\n")},
	})
	if err != nil {
		return nil, err
	}
	if cr, err = st.FindChangeRequest(ctx, handbook.ID, cr.ID); err != nil {
		return nil, err
	}
	res.ChangeRequest = cr
	crScope := store.CommentScope{SpaceID: handbook.ID, ChangeRequestID: &cr.ID}
	c, err := st.PostComment(ctx, crScope, store.NewComment{RevisionID: crRes.Revision, PageID: ptr(crRes.Refs["trouble"]),
		UserID: u.ID, Body: "Should this page also cover the database being locked?"})
	if err != nil {
		return nil, err
	}
	if _, err := st.PostReply(ctx, crScope, c.ID, u.ID, "Good idea, I will add a section."); err != nil {
		return nil, err
	}
	rev, err := st.FindRevision(ctx, handbook.ID, handbook.RevisionID)
	if err != nil {
		return nil, err
	}
	if _, err := st.PostComment(ctx, store.CommentScope{SpaceID: handbook.ID}, store.NewComment{RevisionID: rev.ID,
		PageID: &rev.Pages[0].ID, UserID: u.ID, Body: "Welcome! Comments like this one live on a page."}); err != nil {
		return nil, err
	}

	// A published site: the handbook at its root, then the API guide as a second section.
	site, err := st.CreateSite(ctx, org.ID, store.SiteCreate{Type: "ultimate", Title: "Quire Demo Docs", Visibility: "public",
		Spaces: []string{handbook.ID}})
	if err != nil {
		return nil, err
	}
	if _, err := st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: api.ID}); err != nil {
		return nil, err
	}
	if res.Site, err = st.SetSitePublished(ctx, site.ID, true); err != nil {
		return nil, err
	}
	return res, nil
}

// demoSpace creates a space whose content comes through a merged change request.
func demoSpace(ctx context.Context, st store.Store, orgID, userID, title string, changes []store.PageChange) (*store.Space, error) {
	sp, err := st.CreateSpace(ctx, orgID, userID, store.SpaceCreate{Title: title})
	if err != nil {
		return nil, err
	}
	cr, err := st.CreateChangeRequest(ctx, sp.ID, userID, "First pages")
	if err != nil {
		return nil, err
	}
	if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, changes); err != nil {
		return nil, err
	}
	if _, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, userID); err != nil || conflicts {
		return nil, fmt.Errorf("merging the demo's %q: conflicts %v, %v", title, conflicts, err)
	}
	return st.FindSpace(ctx, sp.ID)
}

func handbookChanges() []store.PageChange {
	return []store.PageChange{
		{Type: "insert_files", Files: []store.FileUpload{{Ref: ptr("diagram"), Name: "diagram.png", ContentType: "image/png", Data: demoImage()}}},
		{Type: "insert_page", Ref: ptr("welcome"), Title: ptr("Welcome"), SetInto: true, Emoji: ptr("👋"),
			Markdown: ptr("This handbook is a demo. Read [Getting started](/pages/start) first.\n\n![How the parts fit](/files/diagram)\n")},
		{Type: "insert_page", Ref: ptr("start"), Title: ptr("Getting started"), SetInto: true,
			Markdown: ptr("Two steps: [install](/pages/install), then [configure](/pages/configure).\n")},
		{Type: "insert_page", Ref: ptr("install"), Title: ptr("Install"), SetInto: true, Into: ptr("start"),
			Markdown: ptr("```sh\ngo install github.com/quire-docs/quire/cmd/quire@latest\n```\n")},
		{Type: "insert_page", Ref: ptr("configure"), Title: ptr("Configure"), SetInto: true, Into: ptr("start"),
			Description: ptr("Flags and environment"), Markdown: ptr("See `quire serve --help`. Back to [the welcome page](/pages/welcome).\n")},
		{Type: "insert_page", Ref: ptr("faq"), Title: ptr("FAQ"), SetInto: true, Hidden: ptr(false),
			Markdown: ptr("**Is it GitBook?** No: it speaks GitBook's API.\n")},
	}
}

// demoImage is a small PNG: a gradient, so that the demo has an image file.
func demoImage() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 8), 200, 255})
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}
