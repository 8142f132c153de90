package conversations

import (
	"strings"
	"unicode"
)

// stopwords are dropped before features are computed: English function words, contraction
// remnants, and the courtesy and generic support vocabulary every conversation shares.
var stopwords = toSet(`a about above after again against all am an and any anyone anything are aren
as at be because been before being below between both but by can could couldn d did didn do does
doesn doing don down during each few for from further had hadn has hasn have haven having he her here
hers herself him himself his how i if in into is isn it its itself just ll m me more most my myself
no nor not now o of off on once only or other our ours ourselves out over own re s same she should
shouldn so some such t than that the their theirs them themselves then there these they this those
through to too under until up very ve was wasn we were weren what when where which while who whom
why will with won would wouldn y you your yours yourself yourselves im ive id youre dont doesnt didnt
cant wont isnt arent wasnt hasnt havent couldnt wouldnt shouldnt thats theres whats also still even
weve theyre theyve youve youll wed ill
already yet however though although anyway actually basically really maybe perhaps please pls plz
hi hello hey dear hiya morning afternoon evening greetings thanks thank thx ty tia cheers regards
best kind kindly warm sincerely appreciate appreciated advance help helping helps support team
folks guys everyone anybody somebody someone something hope doing well great good nice lovely
awesome amazing wonderful weekend week day today yesterday tomorrow soon asap urgent urgently
quick quickly question questions issue issues problem problems thing things stuff lot lots bit
get got getting gets make makes made let lets know knew see seen seems seem seemed look looks
looking like want wanted wants need needs needed try tried trying tries go going went come
comes say said tell told ask asked asking reach reaching wondering wonder sure able via etc
us our one two ever never always sometimes again since ago time times anymore whatever every
much many way could might must shall hear hearing reply answer back update updates per
subject attached above below saying says ok okay yes yeah cool fine`)

// shiftMarkers open a sentence that changes the subject: a conversation's issues are split there.
var shiftMarkers = []string{
	"another issue", "another problem", "another question", "another thing", "one more thing",
	"one other thing", "separately", "unrelated", "on a different note", "on another note",
	"on an unrelated note", "a second issue", "second issue", "second problem", "a different issue",
	"different topic", "also unrelated", "also, unrelated", "while i have you", "by the way, another",
	"oh and another", "ps:", "p.s.",
}

// problemCues mark a sentence that states a problem; they rank title candidates and keep short
// sentences that would otherwise be dropped as chatter.
var problemCues = toSet(`cant cannot unable error errors fail fails failed failing failure broken
broke break breaks doesnt dont wont isnt didnt arent not problem issue bug wrong slow slower
missing stuck crash crashes crashed trouble keeps never lost incorrect unexpected weird strange
timeout timeouts blank empty why how stopped 404 500 502 503 429 403 401`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// plainText turns a Markdown or HTML body into plain text with line breaks kept: tags are
// dropped (block tags become line breaks), Markdown links keep their text, emphasis and heading
// markers go, and the commonest entities are decoded.
func plainText(body string) string {
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '<':
			j := strings.IndexByte(body[i:], '>')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			tag := strings.ToLower(strings.Trim(body[i+1:i+j], "/ "))
			if name, _, _ := strings.Cut(tag, " "); blockTags[name] {
				b.WriteByte('\n')
			}
			i += j
		case c == '[':
			// [text](url) keeps text
			end := strings.IndexByte(body[i:], ']')
			if end > 0 && i+end+1 < len(body) && body[i+end+1] == '(' {
				if close := strings.IndexByte(body[i+end+1:], ')'); close > 0 {
					b.WriteString(body[i+1 : i+end])
					i += end + 1 + close
					continue
				}
			}
			b.WriteByte(c)
		case c == '*' || c == '_' || c == '`' || c == '#' || c == '>':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	r := strings.NewReplacer("&nbsp;", " ", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "’", "'")
	return r.Replace(b.String())
}

var blockTags = toSet(`p br div li ul ol h1 h2 h3 h4 h5 h6 blockquote pre tr table hr`)

// sentences splits plain text into sentences: at line breaks, and after ".", "!" or "?"
// followed by a space.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if (c == '.' || c == '!' || c == '?') && (i+1 == len(line) || line[i+1] == ' ') {
				if s := strings.TrimSpace(line[start : i+1]); s != "" {
					out = append(out, s)
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// tokens lowercases text and splits it into words of letters and digits; apostrophes inside a
// word are dropped ("can't" → "cant").
func tokens(text string) []string { return splitWords(text, true) }

// splitWords is tokens, optionally keeping the case.
func splitWords(text string, lower bool) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if lower {
				r = unicode.ToLower(r)
			}
			cur = append(cur, r)
		case (r == '\'' || r == '’') && len(cur) > 0:
		default:
			flush()
		}
	}
	flush()
	return out
}

// contentWords are the tokens that carry meaning: not stopwords, at least two characters.
func contentWords(toks []string) []string {
	var out []string
	for _, t := range toks {
		if len(t) >= 2 && !stopwords[t] {
			out = append(out, t)
		}
	}
	return out
}

// stem is a light suffix stripper: enough to make plural, past and -ing forms meet, and to
// make "translation", "translate" and "translated" one term. It is not Porter's stemmer and
// makes no attempt to produce real words; labels use the commonest surface form instead.
func stem(w string) string {
	if len(w) <= 3 || !isLetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = w[:len(w)-2]
	}
	if strings.HasSuffix(w, "ion") && len(w) > 5 && (w[len(w)-4] == 't' || w[len(w)-4] == 's') {
		w = w[:len(w)-3]
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	if n := len(w); n > 3 && w[n-1] == w[n-2] && w[n-1] != 's' && !isVowel(w[n-1]) {
		w = w[:n-1]
	}
	return w
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func isVowel(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

// hasShiftMarker reports whether a sentence opens with a change of subject.
func hasShiftMarker(s string) (string, bool) {
	l := strings.ToLower(strings.TrimLeft(s, " -–—*•>"))
	for _, m := range shiftMarkers {
		if strings.HasPrefix(l, m) {
			return s[len(s)-len(strings.TrimLeft(s, " -–—*•>"))+len(m):], true
		}
	}
	return "", false
}
