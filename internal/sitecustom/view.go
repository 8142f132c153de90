package sitecustom

import (
	"encoding/json"
	"regexp"
)

// Link is a header or footer link as the published pages show it: Kind is the target's kind
// (url, page, …) with its URL or page id.
type Link struct {
	Title string
	Kind  string
	URL   string
	Page  string
	Space string // a page's space; "" the space being read
	Links []Link // a header item's dropdown
}

// FooterGroup is a titled column of footer links.
type FooterGroup struct {
	Title string
	Links []Link
}

// View is what quire's published pages show of a layered document; fields not set keep the
// defaults (no logo, no favicon, pagination on, feedback off, the reader's theme).
type View struct {
	Title        string
	LogoLight    string
	LogoDark     string
	FaviconURL   string
	FaviconEmoji string
	PrimaryLight string // a #rrggbb colour, or ""
	PrimaryDark  string
	FontID       string // styling.font when it is one of the organization's custom fonts
	HeaderLinks  []Link
	FooterGroups []FooterGroup
	Copyright    string
	Theme        string // light, dark or system; "" (not set): the reader's preference
	Pagination   bool
	Feedback     bool
}

type wireTarget struct {
	Kind  string `json:"kind"`
	URL   string `json:"url"`
	Page  string `json:"page"`
	Space string `json:"space"`
}

type wireLink struct {
	Title string      `json:"title"`
	To    *wireTarget `json:"to"`
	Links []wireLink  `json:"links"`
}

type themed struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

type wireDoc struct {
	Title   *string `json:"title"`
	Styling struct {
		PrimaryColor *themed         `json:"primaryColor"`
		Font         json.RawMessage `json:"font"`
	} `json:"styling"`
	Favicon struct {
		Icon  *themed `json:"icon"`
		Emoji string  `json:"emoji"`
	} `json:"favicon"`
	Header struct {
		Logo  *themed    `json:"logo"`
		Links []wireLink `json:"links"`
	} `json:"header"`
	Footer struct {
		Groups []struct {
			Title string     `json:"title"`
			Links []wireLink `json:"links"`
		} `json:"groups"`
		Copyright *string `json:"copyright"`
	} `json:"footer"`
	Themes struct {
		Default string `json:"default"`
	} `json:"themes"`
	Pagination struct {
		Enabled *bool `json:"enabled"`
	} `json:"pagination"`
	Feedback struct {
		Enabled *bool `json:"enabled"`
	} `json:"feedback"`
	ExternalLinks struct {
		Target string `json:"target"`
	} `json:"externalLinks"`
}

var hexColor = regexp.MustCompile(`^#([0-9A-Fa-f]{3}){1,2}$`)

func links(ws []wireLink) []Link {
	var out []Link
	for _, w := range ws {
		l := Link{Title: w.Title, Links: links(w.Links)}
		if w.To != nil {
			l.Kind, l.URL, l.Page, l.Space = w.To.Kind, w.To.URL, w.To.Page, w.To.Space
		}
		out = append(out, l)
	}
	return out
}

// ViewOf reads what the pages show from a layered document; a colour that is not #rrggbb is
// left out (it goes into a stylesheet); #rgb or #rrggbb as the API takes.
func ViewOf(doc map[string]any) View {
	v := View{Pagination: true}
	raw, err := json.Marshal(doc)
	if err != nil {
		return v
	}
	var w wireDoc
	if json.Unmarshal(raw, &w) != nil {
		return v
	}
	if w.Title != nil {
		v.Title = *w.Title
	}
	if c := w.Styling.PrimaryColor; c != nil && hexColor.MatchString(c.Light) && hexColor.MatchString(c.Dark) {
		v.PrimaryLight, v.PrimaryDark = c.Light, c.Dark
	}
	var font struct {
		ID     string `json:"id"`
		Custom bool   `json:"custom"`
	}
	if json.Unmarshal(w.Styling.Font, &font) == nil && font.Custom {
		v.FontID = font.ID
	}
	if w.Favicon.Icon != nil {
		v.FaviconURL = w.Favicon.Icon.Light
	}
	v.FaviconEmoji = w.Favicon.Emoji
	if w.Header.Logo != nil {
		v.LogoLight, v.LogoDark = w.Header.Logo.Light, w.Header.Logo.Dark
	}
	v.HeaderLinks = links(w.Header.Links)
	for _, g := range w.Footer.Groups {
		v.FooterGroups = append(v.FooterGroups, FooterGroup{Title: g.Title, Links: links(g.Links)})
	}
	if w.Footer.Copyright != nil {
		v.Copyright = *w.Footer.Copyright
	}
	if w.Themes.Default != "" {
		v.Theme = w.Themes.Default
	}
	if w.Pagination.Enabled != nil {
		v.Pagination = *w.Pagination.Enabled
	}
	if w.Feedback.Enabled != nil {
		v.Feedback = *w.Feedback.Enabled
	}
	return v
}
