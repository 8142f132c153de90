package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/sitecustom"
	"github.com/quire-docs/quire/store"
)

// defaultCustomizations are the customizations a site answers where its owner set nothing:
// the defaults openapi.yaml documents on SiteCustomizationSettings. Every field either public
// spec requires is there.
func defaultCustomizations(title *string) gen.SiteCustomizationSettings {
	var c gen.SiteCustomizationSettings
	c.Title = title
	c.Styling = defaultStyling()
	c.Internationalization.Locale = gen.CustomizationLocaleEn
	_ = c.Favicon.FromCustomizationFavicon2(gen.CustomizationFavicon2{})
	c.Header.Preset = gen.CustomizationHeaderPresetDefault
	c.Header.Links = []gen.CustomizationHeaderItem{}
	c.Footer.Groups = []gen.CustomizationFooterGroup{}
	c.Themes.Default = gen.CustomizationDefaultThemeModeLight
	c.Themes.Toggeable = true
	c.Pdf.Enabled = true
	c.Feedback.Enabled = false
	c.Ai.Mode = gen.CustomizationAIModeNone
	c.AdvancedCustomization.Enabled = true
	c.Git.ShowEditLink = false
	c.PageActions.Markdown = true
	c.PageActions.Items = []gen.CustomizationPageActionType{gen.CustomizationPageActionTypeMarkdown, gen.CustomizationPageActionTypePdf}
	c.ExternalLinks.Target = gen.SiteExternalLinksTargetSelf
	c.Pagination.Enabled = true
	c.Trademark.Enabled = true
	c.SocialAccounts = []gen.SiteSocialAccount{}
	c.Insights.TrackingCookie = true
	return c
}

func defaultStyling() gen.CustomizationStyling {
	color := func(hex string) gen.CustomizationThemedColor {
		return gen.CustomizationThemedColor{Light: hex, Dark: hex}
	}
	var s gen.CustomizationStyling
	s.Theme = gen.CustomizationThemeClean
	s.PrimaryColor = color("#346DDB")
	s.InfoColor = color("#787878")
	s.SuccessColor = color("#00C950")
	s.WarningColor = color("#FE9A00")
	s.DangerColor = color("#FB2C36")
	s.Corners = gen.CustomizationCornersRounded
	s.Depth = gen.CustomizationDepthSubtle
	s.Links = gen.CustomizationLinksStyleDefault
	_ = s.Font.FromCustomizationDefaultFont(gen.CustomizationDefaultFontInter)
	_ = s.MonospaceFont.FromCustomizationDefaultMonospaceFont(gen.CustomizationDefaultMonospaceFontIBMPlexMono)
	s.Background = gen.CustomizationBackgroundPlain
	s.Icons = gen.CustomizationIconsStyleRegular
	code := gen.CustomizationThemedCodeTheme{Light: gen.CustomizationCodeThemeDefaultLight, Dark: gen.CustomizationCodeThemeDefaultDark}
	s.CodeTheme.Default, s.CodeTheme.Openapi = code, code
	s.Sidebar.Background = gen.CustomizationSidebarBackgroundStyleDefault
	s.Sidebar.List = gen.CustomizationSidebarListStyleDefault
	s.Search = gen.CustomizationSearchStyleProminent
	return s
}

// customization is a layered document answered whole: the defaults, the site's document and a
// site space's overrides, with updatedAt when either was put. It carries every field the
// owner set, also those gen.SiteCustomizationSettings does not name.
type customization map[string]any

// customizationOf layers a site's (and a site space's) documents over the defaults.
func (s *Server) customizationOf(ctx context.Context, site *store.Site, siteSpaceID string) (customization, error) {
	title := site.Title
	raw, err := json.Marshal(defaultCustomizations(&title))
	if err != nil {
		return nil, err
	}
	out, err := sitecustom.Decode(raw)
	if err != nil {
		return nil, err
	}
	layered, updated, err := sitecustom.Layered(ctx, s.Store, site.ID, siteSpaceID)
	if err != nil {
		return nil, err
	}
	sitecustom.Merge(out, layered)
	if !updated.IsZero() {
		out["updatedAt"] = updated
	}
	return out, nil
}

func (c customization) write(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	return json.NewEncoder(w).Encode(map[string]any(c))
}

func (c customization) VisitGetSiteCustomizationByIdResponse(w http.ResponseWriter) error {
	return c.write(w)
}

func (c customization) VisitUpdateSiteCustomizationByIdResponse(w http.ResponseWriter) error {
	return c.write(w)
}

func (c customization) VisitGetSiteSpaceCustomizationByIdResponse(w http.ResponseWriter) error {
	return c.write(w)
}

func (c customization) VisitOverrideSiteSpaceCustomizationByIdResponse(w http.ResponseWriter) error {
	return c.write(w)
}

// publishedCustomizations answers the site's customizations and those of each site space the
// visitor sees (a site space's title is its own).
func (s *Server) publishedCustomizations(ctx context.Context, site *store.Site, spaces []*store.SiteSpace) (gen.SiteCustomizationSettings, map[string]gen.SiteCustomizationSettings, error) {
	typed := func(siteSpaceID string) (gen.SiteCustomizationSettings, error) {
		var out gen.SiteCustomizationSettings
		c, err := s.customizationOf(ctx, site, siteSpaceID)
		if err != nil {
			return out, err
		}
		raw, err := json.Marshal(c)
		if err != nil {
			return out, err
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			return out, fmt.Errorf("server: a stored customization does not read back: %w", err)
		}
		return out, nil
	}
	bySpace := make(map[string]gen.SiteCustomizationSettings, len(spaces))
	for _, ss := range spaces {
		c, err := typed(ss.ID)
		if err != nil {
			return gen.SiteCustomizationSettings{}, nil, err
		}
		bySpace[ss.ID] = c
	}
	c, err := typed("")
	return c, bySpace, err
}
