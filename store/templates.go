package store

import (
	"embed"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Templates are built-in page sets a space's content can be given in one step. Their markdown
// lives in templates/<id>/*.md; links between a template's pages use the batch's refs
// (/pages/<ref>), and a line {{name}} is a file the caller may name in contentRefs (the line
// becomes an image of that file, or goes away when none is given).

//go:embed templates/*/*.md
var templateFS embed.FS

// templatePage is a page of a template and its subpages.
type templatePage struct {
	ref         string // the page's ref in the batch; other pages link to /pages/<ref>
	title       string
	description string
	file        string // templates/<template id>/<file>
	pages       []templatePage
}

// builtinTemplate is a template: one top-level page with its subpages.
type builtinTemplate struct {
	title string   // what a space made from it is called
	files []string // the contentRefs names the template uses
	root  templatePage
}

var builtinTemplates = map[string]builtinTemplate{
	"product-guide": {
		title: "Product guide",
		files: []string{"logo"},
		root: templatePage{
			ref: "guide-getting-started", title: "Getting started", file: "getting-started.md",
			description: "Everything a new user needs to go from a first look to everyday use.",
			pages: []templatePage{
				{ref: "guide-overview", title: "Overview", file: "overview.md",
					description: "What the product does, who it is for and what you need."},
				{ref: "guide-quick-start", title: "Quick start", file: "quick-start.md",
					description: "From a new account to a first project with a teammate, in about ten minutes."},
				{ref: "guide-key-concepts", title: "Key concepts", file: "key-concepts.md",
					description: "Workspaces, projects, members and roles, and history."},
				{ref: "guide-troubleshooting", title: "Troubleshooting", file: "troubleshooting.md",
					description: "Quick fixes for the problems new users meet most."},
				{ref: "guide-faq", title: "FAQ", file: "faq.md",
					description: "Short answers to common questions."},
			},
		},
	},
	"api-reference": {
		title: "API reference",
		files: []string{"logo"},
		root: templatePage{
			ref: "api-reference", title: "API reference", file: "api-reference.md",
			description: "Programmatic access to your data: conventions, authentication and every endpoint.",
			pages: []templatePage{
				{ref: "api-authentication", title: "Authentication", file: "authentication.md",
					description: "Creating API tokens and sending them with requests."},
				{ref: "api-errors", title: "Errors", file: "errors.md",
					description: "The error format, the status codes and how to retry."},
				{ref: "api-pagination", title: "Pagination", file: "pagination.md",
					description: "Walking through long lists with cursors."},
				{ref: "api-rate-limits", title: "Rate limits", file: "rate-limits.md",
					description: "How many requests you can make, and what to do at the limit."},
				{ref: "api-resources", title: "Resources", file: "resources.md",
					description: "Every endpoint, grouped by the object it works on.",
					pages: []templatePage{
						{ref: "api-users", title: "Users", file: "users.md",
							description: "The user object; the current user and users by id."},
						{ref: "api-projects", title: "Projects", file: "projects.md",
							description: "The project object; list, create, update and delete projects."},
					}},
			},
		},
	},
}

// TemplateIDs returns the ids of the built-in templates, sorted.
func TemplateIDs() []string {
	ids := make([]string, 0, len(builtinTemplates))
	for id := range builtinTemplates {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// TemplateTitle returns what a space made from a built-in template is called ("" for an
// unknown id).
func TemplateTitle(id string) string { return builtinTemplates[id].title }

// TemplateChanges returns the batch of insert_page changes that adds a built-in template's pages
// after the existing top-level pages. files maps the contentRefs names the caller gave to file
// ids. An unknown template id or a file name the template does not use is an EINVALID error.
//
// It does not check that the files exist: ApplyTemplate checks them against the revision.
func TemplateChanges(id string, files map[string]string) ([]PageChange, error) {
	tpl, ok := builtinTemplates[id]
	if !ok {
		return nil, FieldErrorf("id", "there is no template %q; the templates are %s", id, templateQuoteList(TemplateIDs()))
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(tpl.files, name) {
			return nil, FieldErrorf("params.contentRefs."+name, "the template %q uses no file named %q (it uses %s)",
				id, name, templateQuoteList(tpl.files))
		}
	}
	var changes []PageChange
	var add func(p templatePage, parent *string) error
	add = func(p templatePage, parent *string) error {
		raw, err := templateFS.ReadFile("templates/" + id + "/" + p.file)
		if err != nil {
			return fmt.Errorf("store: template %s: %w", id, err)
		}
		ref, title, desc := p.ref, p.title, p.description
		md := fillTemplate(string(raw), files)
		changes = append(changes, PageChange{Type: "insert_page", Ref: &ref, Title: &title, Description: &desc,
			Markdown: &md, SetInto: true, Into: parent})
		for _, sub := range p.pages {
			if err := add(sub, &ref); err != nil {
				return err
			}
		}
		return nil
	}
	if err := add(tpl.root, nil); err != nil {
		return nil, err
	}
	return changes, nil
}

// fillTemplate replaces each line {{name}} of a template page: with an image of the file given
// for name, or with nothing (and the blank line after it) when none was given.
func fillTemplate(md string, files map[string]string) string {
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "{{") && strings.HasSuffix(line, "}}") {
			name := strings.TrimSpace(line[2 : len(line)-2])
			if fileID, ok := files[name]; ok {
				out = append(out, fmt.Sprintf("![%s](/files/%s)", strings.ToUpper(name[:1])+name[1:], fileID))
				continue
			}
			if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "" {
				i++
			}
			continue
		}
		out = append(out, lines[i])
	}
	return strings.TrimSpace(strings.Join(out, "\n")) + "\n"
}

func templateQuoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
