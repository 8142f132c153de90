package openapispec

import (
	"strings"
	"unicode/utf8"
)

// Computed content: the pages a `builtin:openapi` source makes from a reference, each written as
// markdown holding GitBook's OpenAPI tags ({% openapi-operation spec=… %}, read by
// internal/markdown as the document's blocks), so a page computed once reads like a page written
// by hand and keeps showing the specification's latest version.

// ComputedPage is a page a source computes, with its subpages.
type ComputedPage struct {
	// Key says what the page shows ("tag:<name>", "operation:<METHOD> <path>", "models"): the
	// part of its id that does not come from the seed.
	Key                string
	Title, Description string
	Markdown           string
	Pages              []ComputedPage
}

// Compute says how pages are computed: the specification's slug, whether operations get pages of
// their own (else a page per tag), whether a page shows the models, and the address of the
// document for a download link ("" for none).
type Compute struct {
	Spec        string
	ByOperation bool
	Models      bool
	DownloadURL string
}

// Pages computes the pages of a reference: a page per tag, in the document's order ("default",
// the untagged operations, titled "Other"), then "Models".
func (c Compute) Pages(r *Reference) []ComputedPage {
	var out []ComputedPage
	for _, t := range r.Tags {
		p := ComputedPage{Key: "tag:" + t.Name, Title: tagTitle(t.Name)}
		if c.ByOperation {
			p.Markdown = t.Description
			for _, o := range t.Operations {
				p.Pages = append(p.Pages, ComputedPage{Key: "operation:" + o.Method + " " + o.Path,
					Title: operationTitle(o), Description: firstLine(o.Description), Markdown: OperationTag(c.Spec, o, true)})
			}
		} else {
			p.Markdown = c.TagMarkdown(t, true)
		}
		out = append(out, p)
	}
	if c.Models && len(r.Schemas) > 0 {
		out = append(out, ComputedPage{Key: "models", Title: "Models", Markdown: SchemasTag(c.Spec, r.Schemas)})
	}
	if c.DownloadURL != "" && len(out) > 0 {
		link := "[Download the OpenAPI specification](<" + strings.ReplaceAll(c.DownloadURL, ">", "%3E") + ">)"
		out[0].Markdown = joinMarkdown(link, out[0].Markdown)
	}
	return out
}

// TagMarkdown is a tag's page: its description (withDescription) and a block per operation.
func (c Compute) TagMarkdown(t RefTag, withDescription bool) string {
	var parts []string
	if withDescription {
		parts = append(parts, t.Description)
	}
	for _, o := range t.Operations {
		parts = append(parts, OperationTag(c.Spec, o, false))
	}
	return joinMarkdown(parts...)
}

// Tag returns the reference's tag with a name (its title "Other" names "default"), nil when
// there is none.
func (r *Reference) Tag(name string) *RefTag {
	for i := range r.Tags {
		if r.Tags[i].Name == name || tagTitle(r.Tags[i].Name) == name {
			return &r.Tags[i]
		}
	}
	return nil
}

// OperationTag is the block showing one operation; headless when its page shows its title.
func OperationTag(spec string, o *RefOperation, headless bool) string {
	tag := `{% openapi-operation spec="` + attr(spec) + `" path="` + attr(o.Path) + `" method="` + strings.ToLower(o.Method) + `"`
	if headless {
		tag += ` headless="true"`
	}
	return tag + " %}\n{% endopenapi-operation %}"
}

// SchemasTag is the block showing schemas of the specification.
func SchemasTag(spec string, names []string) string {
	list := make([]string, 0, len(names))
	for _, n := range names {
		if !strings.Contains(n, ",") {
			list = append(list, attr(n))
		}
	}
	return `{% openapi-schemas spec="` + attr(spec) + `" schemas="` + strings.Join(list, ",") + `" grouped="true" %}` +
		"\n{% endopenapi-schemas %}"
}

// attr makes a value fit a tag's quoted attribute: quotes and percent signs (which end a tag)
// are encoded, as in a URL.
func attr(v string) string {
	return strings.NewReplacer(`"`, "%22", "%", "%25", "\n", " ").Replace(v)
}

func tagTitle(name string) string {
	if name == "default" {
		return "Other"
	}
	return name
}

func operationTitle(o *RefOperation) string {
	if t := strings.TrimSpace(o.Summary); t != "" {
		return t
	}
	return o.Method + " " + o.Path
}

// firstLine is the first line of a text, cut to 300 bytes (a page's description).
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

func joinMarkdown(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}
