package server

import (
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// defaultCustomizations are the customizations every published site and site space answers:
// quire stores none yet, so these are the defaults openapi.yaml documents on
// SiteCustomizationSettings. Every field either public spec requires is there.
func defaultCustomizations(title *string) gen.SiteCustomizationSettings {
	var c gen.SiteCustomizationSettings
	c.Title = title
	c.Styling = defaultStyling()
	c.Internationalization.Locale = gen.CustomizationLocaleEn
	c.Favicon = map[string]any{}
	c.Header.Preset = gen.CustomizationHeaderPresetDefault
	c.Header.Links = []gen.CustomizationHeaderItem{}
	c.Footer.Groups = []gen.CustomizationFooterGroup{}
	c.Themes.Default = gen.CustomizationThemeModeLight
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
	s.Font = gen.CustomizationDefaultFontInter
	s.MonospaceFont = gen.CustomizationDefaultMonospaceFontIBMPlexMono
	s.Background = gen.CustomizationBackgroundPlain
	s.Icons = gen.CustomizationIconsStyleRegular
	code := gen.CustomizationThemedCodeTheme{Light: gen.CustomizationCodeThemeDefaultLight, Dark: gen.CustomizationCodeThemeDefaultDark}
	s.CodeTheme.Default, s.CodeTheme.Openapi = code, code
	s.Sidebar.Background = gen.CustomizationSidebarBackgroundStyleDefault
	s.Sidebar.List = gen.CustomizationSidebarListStyleDefault
	s.Search = gen.CustomizationSearchStyleProminent
	return s
}

// publishedCustomizations answers the site's customizations and those of each site space the
// visitor sees (a site space's title is its own).
func publishedCustomizations(site *store.Site, spaces []*store.SiteSpace) (gen.SiteCustomizationSettings, map[string]gen.SiteCustomizationSettings) {
	title := site.Title
	bySpace := make(map[string]gen.SiteCustomizationSettings, len(spaces))
	for _, ss := range spaces {
		bySpace[ss.ID] = defaultCustomizations(&title)
	}
	return defaultCustomizations(&title), bySpace
}
