package markdown

// The writer from a Document to markdown: its state and the escaping every part of it uses
// (blocks: tomarkdown.go; inlines: inlines.go).

import (
	"regexp"
	"strings"
)

type writer struct {
	opts    Options
	anchors anchors
	inTable bool
}

// codeText is a line of code as a paragraph holding a code span ("" when blank).
func (w *writer) codeText(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return w.codeSpan(strings.TrimSpace(s))
}

func (w *writer) imageMarkdown(data map[string]any, caption string) string {
	ref, _ := data["ref"].(map[string]any)
	dest := w.opts.destFor(ref)
	alt, _ := data["alt"].(string)
	out := "![" + escapeText(alt, w.inTable) + "](" + linkDest(dest)
	if caption != "" {
		out += ` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(caption) + `"`
	}
	return out + ")"
}

// linkDest writes a link destination, in <…> when it holds what would end it.
func linkDest(dest string) string {
	if dest == "" {
		return ""
	}
	dest = entityLike.ReplaceAllString(dest, `\&$1`)
	if strings.ContainsAny(dest, " \t\n<>()\\") {
		return "<" + strings.NewReplacer(`\&`, `\&`, `\`, `\\`, "<", `\<`, ">", `\>`, "\n", " ").Replace(dest) + ">"
	}
	return dest
}

// codeSpan writes text as a code span, fenced by more backticks than it holds in a row.
func (w *writer) codeSpan(text string) string {
	text = strings.ReplaceAll(text, "\n", " ")
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if w.inTable {
		text = strings.ReplaceAll(text, "|", `\|`)
	}
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") ||
		(len(text) > 1 && text[0] == ' ' && text[len(text)-1] == ' ' && strings.TrimSpace(text) != "") {
		text = " " + text + " "
	}
	return fence + text + fence
}

var (
	entityLike  = regexp.MustCompile(`&(#?[A-Za-z0-9]+;)`)
	wwwLike     = regexp.MustCompile(`(?i)(www)\.`)
	emailLike   = regexp.MustCompile(`([A-Za-z0-9._+-])@`)
	escapeChars = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
		"<", `\<`, "~", `\~`)
)

// escapeText escapes what markdown would read as syntax inside a line of text.
func escapeText(s string, inTable bool) string {
	s = escapeChars.Replace(s)
	s = entityLike.ReplaceAllString(s, `\&$1`)
	// GFM's autolinks would make links of URLs, www. names and addresses in plain text.
	s = strings.ReplaceAll(s, "://", `:\/\/`)
	s = wwwLike.ReplaceAllString(s, `${1}\.`)
	s = emailLike.ReplaceAllString(s, `$1\@`)
	// goldmark counts an escaped ~ into a neighbouring ~~ run: at the edges, write it as an entity.
	if strings.HasPrefix(s, `\~`) {
		s = "&#126;" + s[2:]
	}
	if strings.HasSuffix(s, `\~`) {
		s = s[:len(s)-2] + "&#126;"
	}
	if strings.HasSuffix(s, "!") {
		s = s[:len(s)-1] + `\!`
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return s
}
