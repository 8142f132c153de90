package markdown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// The package's converters are package-level values shared by every request: goldmark's parsers
// and renderers, bluemonday's policy, chroma's formatter (issue 24 audited them). Converting on
// many goroutines at once answers what converting alone does; under the race detector (make test)
// a converter that keeps state between calls fails this test.
func TestConcurrentConversions(t *testing.T) {
	sources := []string{
		"# Title\n\nSome *text* with a [link](https://example.com) and `code`.\n",
		"## Steps\n\n1. one\n2. two\n\n```go\nfunc main() { println(\"hi\") }\n```\n",
		"> [!NOTE]\n> A hint.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"{% hint style=\"warning\" %}\nCareful **here**.\n{% endhint %}\n\n- [x] done\n- [ ] todo\n",
		"Café crème ~~brûlée~~ <b>raw html</b> ![img](./pic.png \"title\")\n",
	}
	type result struct {
		doc, md, html string
	}
	convert := func(src string) result {
		doc := FromMarkdown(src)
		j, err := json.Marshal(doc)
		if err != nil {
			t.Error(err)
		}
		html, headings := HTMLOptions{}.ToHTML(src)
		return result{string(j), ToMarkdown(doc), fmt.Sprintf("%s %v %d", bytes.TrimSpace(html), headings, len(Sections("T", src, 8)))}
	}
	want := make([]result, len(sources))
	for i, s := range sources {
		want[i] = convert(s)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 40 {
				i := (g + n) % len(sources)
				if got := convert(sources[i]); got != want[i] {
					t.Errorf("goroutine %d: source %d converts to %+v, alone to %+v", g, i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}
