package translate_test

import (
	"slices"
	"testing"

	"github.com/quire-docs/quire/internal/translate"
)

// GitBook's codes map to Apertium's ISO 639-3 codes and back.
func TestApertiumCodes(t *testing.T) {
	for code, want := range map[string][]string{
		"en": {"eng"}, "es": {"spa"}, "fr": {"fra"}, "de": {"deu"}, "pt-br": {"por_BR", "por"},
		"zh-tw": {"zho_TW", "zho", "cmn"}, "no": {"nor", "nob", "nno"}, "uk": {"ukr"}, "he": {"heb"}, "yue": {"yue"},
	} {
		if got := translate.Apertium639_3(code); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
	for code, want := range map[string]string{"eng": "en", "spa": "es", "por_BR": "pt-br", "nob": "no", "eng_US": "en-us", "xyzzy": ""} {
		if got := translate.ISO639_1(code); got != want {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
}

func TestResolveAPy(t *testing.T) {
	pairs := []translate.APyPair{{Source: "spa", Target: "eng"}, {Source: "spa", Target: "eng_US"}, {Source: "eng", Target: "spa"},
		{Source: "por", Target: "spa"}, {Source: "spa", Target: "por_BR"}, {Source: "nob", Target: "nno"}}
	for _, c := range []struct{ from, to, wantFrom, wantTo, err string }{
		{"en", "es", "eng", "spa", ""},
		{"es", "en", "spa", "eng", ""},
		{"pt-br", "es", "por", "spa", ""},
		{"es", "pt-br", "spa", "por_BR", ""},
		{"es", "pt", "spa", "por_BR", ""},
		{"no", "no", "nob", "nno", ""},
		{"en", "ja", "", "", `does not offer the language "ja" (Apertium jpn)`},
		{"ko", "en", "", "", `does not offer the source language "ko" (Apertium kor)`},
		{"en", "pt", "", "", `does not translate from "en" into "pt" (no Apertium pair eng-por installed)`},
	} {
		from, to, err := translate.ResolveAPy(pairs, c.from, c.to)
		if c.err != "" {
			if err == nil || err.Error() != "the translator "+c.err {
				t.Errorf("%s→%s: %v, want %q", c.from, c.to, err, c.err)
			}
			continue
		}
		if err != nil || from != c.wantFrom || to != c.wantTo {
			t.Errorf("%s→%s: %s→%s %v", c.from, c.to, from, to, err)
		}
	}
}
