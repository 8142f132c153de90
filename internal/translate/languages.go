package translate

import (
	"strings"

	"golang.org/x/text/language"
)

// apertiumExtra are the ISO 639-3 codes Apertium uses where the macrolanguage's code is not the
// one its pairs carry: Norwegian is Bokmål (nob) or Nynorsk (nno), Malay is Standard Malay (zlm),
// Chinese pairs name Mandarin (cmn).
var apertiumExtra = map[string][]string{
	"nor": {"nob", "nno"},
	"msa": {"zlm"},
	"zho": {"cmn"},
}

// Apertium639_3 answers the Apertium codes that may stand for one of GitBook's language codes
// (ISO 639-1, with a region for pt-br and zh-tw), most specific first: "pt-br" is por_BR then
// por, "en" is eng. The ISO 639-1 → 639-3 mapping is golang.org/x/text's; a code it does not know
// is tried as it is.
func Apertium639_3(code string) []string {
	tag, err := language.Parse(code)
	if err != nil {
		return []string{code}
	}
	base, _ := tag.Base()
	iso3 := base.ISO3()
	var out []string
	if region, conf := tag.Region(); conf == language.Exact {
		out = append(out, iso3+"_"+region.String())
	}
	out = append(out, iso3)
	out = append(out, apertiumExtra[iso3]...)
	return out
}

// ISO639_1 answers GitBook's code of an Apertium code ("spa" → es, "por_BR" → pt-br), "" when
// there is none.
func ISO639_1(code string) string {
	base, variant, _ := strings.Cut(code, "_")
	for iso3, extra := range apertiumExtra {
		for _, e := range extra {
			if base == e {
				base = iso3
			}
		}
	}
	b, err := language.ParseBase(base)
	if err != nil {
		return ""
	}
	out := b.String()
	if variant != "" && len(variant) == 2 {
		out += "-" + strings.ToLower(variant)
	}
	return out
}
