package conversations

import (
	"strings"
	"testing"
)

func msg(role, body string) Part { return Part{Type: "message", Role: role, Body: body} }

func TestExtractDropsChatterAndPicksTheProblem(t *testing.T) {
	c := Conversation{ID: "c1", Source: "email", Subject: "Help", Parts: []Part{
		msg("user", "<p>Hi team,</p><p>Hope you're doing well!</p><p>We use the <b>PDF export</b> for audits. The exported PDF is missing all the images.</p><p>Thanks in advance!</p><p>Best,<br>Anna</p>"),
		msg("team-member", "Have you checked your billing settings? Your invoice is wrong."),
		msg("user", "Any update on this?"),
	}}
	got := extractIssues(c)
	if len(got) != 1 {
		t.Fatalf("got %d issues, want 1: %+v", len(got), got)
	}
	if got[0].title != "The exported PDF is missing all the images." {
		t.Errorf("title = %q", got[0].title)
	}
	for _, chatter := range []string{"Hi team", "Hope", "Thanks", "Anna", "billing", "invoice", "<p>", "<b>"} {
		if strings.Contains(got[0].summary, chatter) {
			t.Errorf("summary %q holds %q", got[0].summary, chatter)
		}
	}
	if !strings.Contains(got[0].summary, "We use the PDF export for audits.") {
		t.Errorf("summary %q lacks the context sentence", got[0].summary)
	}
}

func TestExtractSplitsAtAChangeOfSubject(t *testing.T) {
	c := Conversation{ID: "c2", Source: "email", Parts: []Part{
		msg("user", "Hello! Our custom domain shows an SSL certificate error. The CNAME points to the right host."),
		msg("user", "Another issue: we were charged twice for the same month.\nP.S. the search bar returns zero results for every query"),
	}}
	got := extractIssues(c)
	if len(got) != 3 {
		t.Fatalf("got %d issues, want 3: %+v", len(got), got)
	}
	want := []string{
		"Our custom domain shows an SSL certificate error.",
		"We were charged twice for the same month.",
		"The search bar returns zero results for every query",
	}
	for i, w := range want {
		if got[i].title != w {
			t.Errorf("issue %d title = %q, want %q", i, got[i].title, w)
		}
	}
}

func TestExtractNothingButChatter(t *testing.T) {
	for name, c := range map[string]Conversation{
		"greetings only":  {Parts: []Part{msg("user", "Hi there! Thanks so much, have a nice day.\nCheers,\nTom")}},
		"no user parts":   {Parts: []Part{msg("team-member", "Your SSO login fails because of the certificate.")}},
		"other part type": {Parts: []Part{{Type: "note", Role: "user", Body: "The search index is outdated."}}},
		"empty":           {},
	} {
		if got := extractIssues(c); len(got) != 0 {
			t.Errorf("%s: got %+v, want no issue", name, got)
		}
	}
	c := Conversation{Subject: "Refund for the annual plan", Parts: []Part{msg("user", "Hi, see subject. Thanks!")}}
	if got := extractIssues(c); len(got) != 1 || got[0].title != "Refund for the annual plan" {
		t.Errorf("subject fallback: got %+v", got)
	}
}

func TestTruncateAtAWord(t *testing.T) {
	s := strings.Repeat("word ", 40)
	got := truncate(s, 50)
	if len(got) > 50 || !strings.HasSuffix(got, "word…") {
		t.Fatalf("truncate = %q (%d bytes)", got, len(got))
	}
}

func TestStem(t *testing.T) {
	for _, group := range [][]string{
		{"translation", "translations", "translate", "translated", "translating"},
		{"charge", "charged", "charges", "charging"},
		{"log", "logs", "logged", "logging"},
		{"link", "links", "linked"},
	} {
		for _, w := range group[1:] {
			if stem(w) != stem(group[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, stem(w), group[0], stem(group[0]))
			}
		}
	}
}
