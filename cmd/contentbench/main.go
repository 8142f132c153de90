// Command contentbench measures quire's content model from outside, over HTTP, as a client sees it
// (issue 31): it ingests -pages pages of about 150 words through content batches of 50 pages in
// change requests of 1,000 pages, each merged; then lists the whole space's pages (the first read
// of the revision's list, then 40 more), merges 60 change requests of 10 edited pages and
// searches the space with a rare word, a common word and two words, 300 times each.
//
// The samples are that many so that a percentile is the engine's and not the first requests':
// the first merges after an ingest and the first searches on a server's connections pay for
// statements new to those connections (PostgreSQL plans them, loads the catalogs they read),
// 20 to 65 ms where the next take 3 to 15, and with 100 searches the five slowest set the p95.
// The first search's time is printed on its own (search_first), as the first read of the list is.
//
//	contentbench -url http://127.0.0.1:8080 -token TOKEN -pages 20000 -label SQLite
//	contentbench -url http://127.0.0.1:8080 -token TOKEN -space SPACE_ID   # the searches only, again
//
// It prints one line per figure, then a machine-readable block (`FIGURE name value`) that
// testdata/bench/targets.sh reads to print the targets table. Any answer other than the one
// expected makes it exit non-zero: a figure measured over errors is no figure.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
)

// words is the vocabulary of the generated pages; "page" is in every page's title and text, and
// rareWord is written into one page in 500, so the three searches hit many, few and some pages.
var words = strings.Fields(`the a page guide install configure server client token request response
	error retry limit cursor list item project member role team space content revision merge branch file
	image link search index query result section heading table code example note warning tip option value
	default setting account user admin access key secret deploy build test release version update change`)

const rareWord = "zephyrine"

type client struct {
	base  string
	token string
	http  *http.Client
}

// call sends one request and decodes a JSON answer into out (when not nil); a status other than
// want stops the bench.
func (c *client) call(method, path string, body any, want int, out any) time.Duration {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			fail("encode %s %s: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		fail("%s %s: %v", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	t0 := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		fail("%s %s: %v", method, path, err)
	}
	// An answer that is not decoded is read to its last byte and dropped: the time is the
	// server's, not that of this client growing a buffer for megabytes.
	var data []byte
	if out == nil && resp.StatusCode == want {
		_, err = io.Copy(io.Discard, resp.Body)
	} else {
		data, err = io.ReadAll(resp.Body)
	}
	resp.Body.Close()
	d := time.Since(t0)
	if err != nil {
		fail("%s %s: reading the answer: %v", method, path, err)
	}
	if resp.StatusCode != want {
		fail("%s %s: %s (want %d): %.300s", method, path, resp.Status, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			fail("%s %s: decoding the answer: %v", method, path, err)
		}
	}
	return d
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "contentbench: "+format+"\n", args...)
	os.Exit(1)
}

func pageMarkdown(r *rand.Rand, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "See [the API](https://example.com/api/%d) for the page's calls.\n\n", r.Intn(100))
	for i := 0; i < 150; i++ {
		if i == 70 && n%500 == 7 {
			b.WriteString(rareWord + " ")
		}
		b.WriteString(words[r.Intn(len(words))])
		if i%25 == 24 {
			b.WriteString(".\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

type idObject struct {
	ID string `json:"id"`
}

func main() {
	base := flag.String("url", "", "quire's base URL (required)")
	token := flag.String("token", "", "an API token of a user who may create organizations (required)")
	pages := flag.Int("pages", 20000, "pages to ingest")
	label := flag.String("label", "", "name printed with the figures (the engine)")
	seed := flag.Int64("seed", 31, "seed of the generated content")
	only := flag.String("space", "", "only search this space (one this bench ingested before), to measure search again")
	merges := flag.Int("merges", 0, "with -space: first merge this many change requests of 10 edited pages, to measure merges again")
	searching := flag.Bool("search", true, "with -space: measure search (-search=false with -merges measures merges only)")
	flag.Parse()
	if *base == "" || *token == "" || *pages < 1000 {
		fmt.Fprintln(os.Stderr, "usage: contentbench -url URL -token TOKEN [-pages N>=1000] [-label NAME]")
		os.Exit(2)
	}
	c := &client{base: strings.TrimRight(*base, "/") + "/v1", token: *token, http: &http.Client{
		Timeout: 5 * time.Minute,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 4,
			DisableCompression:  true,
		},
	}}
	r := rand.New(rand.NewSource(*seed))
	if *only != "" {
		if *merges > 0 {
			var list struct {
				Items []json.RawMessage `json:"items"`
				Pages []json.RawMessage `json:"pages"`
			}
			c.call("GET", "/spaces/"+*only+"/content/pages", nil, 200, &list)
			d := tenPageMerges(c, "/spaces/"+*only, documentIDs(append(list.Pages, list.Items...)), r, *merges)
			fmt.Printf("%s: merge of 10 p50 %.1f ms, p90 %.1f ms (%d merges)\n", *label, ms(pct(d, .5)), ms(pct(d, .9)), len(d))
		}
		if !*searching {
			return
		}
		rare, common, two := searches(c, "/spaces/"+*only)
		fmt.Printf("%s: search p95 rare %.1f / common %.1f / two words %.1f ms\n", *label, ms(pct(rare, .95)), ms(pct(common, .95)), ms(pct(two, .95)))
		return
	}

	var org, space idObject
	c.call("POST", "/orgs", map[string]any{"title": "Bench"}, 201, &org)
	c.call("POST", "/orgs/"+org.ID+"/spaces", map[string]any{"title": "Docs"}, 201, &space)
	sp := "/spaces/" + space.ID

	// Ingest: each change request adds 1,000 pages under 5 new sections, 50 pages a batch.
	var batchTimes, bigMerges []time.Duration
	start := time.Now()
	for done := 0; done < *pages; {
		var cr idObject
		c.call("POST", sp+"/change-requests", map[string]any{"subject": "Ingest"}, 201, &cr)
		sectionID := ""
		for k := 0; k < 1000 && done < *pages; {
			var changes []map[string]any
			into, ref := sectionID, ""
			if k%200 == 0 {
				ref = fmt.Sprintf("s%d", done)
				changes = append(changes, map[string]any{"operation": "insert_page", "ref": ref,
					"title": fmt.Sprintf("Section %d", done/200), "document": map[string]any{"markdown": "Pages of this section."}})
				into = ref
				k++
				done++
			}
			for len(changes) < 50 && k < 1000 && done < *pages {
				ch := map[string]any{"operation": "insert_page", "title": fmt.Sprintf("Page %d", done),
					"document": map[string]any{"markdown": pageMarkdown(r, done)}}
				if into != "" {
					ch["into"] = into
				}
				changes = append(changes, ch)
				k++
				done++
			}
			var res struct {
				Changes []struct {
					Ref  string   `json:"ref"`
					Page idObject `json:"page"`
				} `json:"changes"`
			}
			batchTimes = append(batchTimes, c.call("POST", sp+"/change-requests/"+cr.ID+"/content?compat=false",
				map[string]any{"changes": changes}, 200, &res))
			if ref != "" {
				sectionID = ""
				for _, ch := range res.Changes {
					if ch.Ref == ref {
						sectionID = ch.Page.ID
					}
				}
				if sectionID == "" {
					fail("the batch answered no page for ref %q", ref)
				}
			}
		}
		bigMerges = append(bigMerges, c.call("POST", sp+"/change-requests/"+cr.ID+"/merge", map[string]any{}, 200, nil))
	}
	ingest := time.Since(start)

	// The page list, read whole; its ids feed the edits.
	var listTimes []time.Duration
	var ids []string
	var size int
	var listFirst time.Duration
	for i := 0; i < 41; i++ {
		var list struct {
			Items []json.RawMessage `json:"items"`
			Pages []json.RawMessage `json:"pages"`
		}
		var into any = &list // the first read is decoded for its ids; the others are only timed
		if i > 0 {
			into = nil
		}
		d := c.call("GET", sp+"/content/pages", nil, 200, into)
		if i > 0 {
			listTimes = append(listTimes, d)
		}
		if i == 0 {
			listFirst = d
			b, _ := json.Marshal(list)
			size = len(b)
			ids = documentIDs(append(list.Pages, list.Items...))
		}
	}
	if len(ids) < *pages/2 {
		fail("listPages answered %d document pages for %d ingested", len(ids), *pages)
	}

	smallMerges := tenPageMerges(c, sp, ids, r, smallMergeCount)

	rare, common, two := searches(c, sp)

	rate := float64(*pages) / ingest.Seconds()
	name := *label
	fmt.Printf("%s: ingest %d pages in %.1f s = %.0f pages/s; batch of 50 p50 %.1f ms; merge of 1,000 p50 %.1f ms; merge of 10 p50 %.1f ms\n",
		name, *pages, ingest.Seconds(), rate, ms(pct(batchTimes, .5)), ms(pct(bigMerges, .5)), ms(pct(smallMerges, .5)))
	fmt.Printf("%s: listPages (%d pages, %.1f MB) first read %.1f ms, then p95 %.1f ms; search first %.1f ms, then p95 rare %.1f / common %.1f / two words %.1f ms\n",
		name, len(ids), float64(size)/1e6, ms(listFirst), ms(pct(listTimes, .95)), ms(rare[0]), ms(pct(rare, .95)), ms(pct(common, .95)), ms(pct(two, .95)))
	figures := []struct {
		name string
		v    float64
	}{
		{"ingest", rate}, {"batch50_p50", ms(pct(batchTimes, .5))}, {"merge1000_p50", ms(pct(bigMerges, .5))},
		{"merge10_p50", ms(pct(smallMerges, .5))}, {"listpages_first", ms(listFirst)}, {"listpages_p95", ms(pct(listTimes, .95))},
		{"search_rare_p95", ms(pct(rare, .95))}, {"search_common_p95", ms(pct(common, .95))},
		{"search_two_p95", ms(pct(two, .95))}, {"search_first", ms(rare[0])},
	}
	for _, f := range figures {
		fmt.Printf("FIGURE %s %.2f\n", f.name, f.v)
	}
}

// smallMergeCount is how many change requests of 10 edited pages the bench merges.
const smallMergeCount = 60

// tenPageMerges merges n change requests that each update 10 of the pages ids names, and answers
// the merges' times.
func tenPageMerges(c *client, sp string, ids []string, r *rand.Rand, n int) []time.Duration {
	var times []time.Duration
	for i := 0; i < n; i++ {
		var cr idObject
		c.call("POST", sp+"/change-requests", map[string]any{"subject": "Ten edits"}, 201, &cr)
		var changes []map[string]any
		for j := 0; j < 10; j++ {
			changes = append(changes, map[string]any{"operation": "update_page", "page": ids[r.Intn(len(ids))],
				"document": map[string]any{"markdown": pageMarkdown(r, i*10+j)}})
		}
		c.call("POST", sp+"/change-requests/"+cr.ID+"/content", map[string]any{"changes": changes}, 200, nil)
		times = append(times, c.call("POST", sp+"/change-requests/"+cr.ID+"/merge", map[string]any{}, 200, nil))
	}
	return times
}

// searchCount is how many times the bench searches with each kind of query.
const searchCount = 300

// searches searches a space (its path) with a rare word, a common word and two words, each kind
// searchCount times, and answers the times of each kind (the first search is rare's first).
func searches(c *client, sp string) (rare, common, two []time.Duration) {
	search := func(q string) []time.Duration {
		var ts []time.Duration
		for i := 0; i < searchCount; i++ {
			var res struct {
				Items []json.RawMessage `json:"items"`
			}
			ts = append(ts, c.call("GET", sp+"/search?query="+url.QueryEscape(q), nil, 200, &res))
			if len(res.Items) == 0 {
				fail("search %q found nothing", q)
			}
		}
		return ts
	}
	return search(rareWord), search("page"), search("install token")
}

// documentIDs walks a page tree and answers the ids of its document pages.
func documentIDs(pages []json.RawMessage) []string {
	var ids []string
	for _, raw := range pages {
		var p struct {
			ID    string            `json:"id"`
			Type  string            `json:"type"`
			Pages []json.RawMessage `json:"pages"`
		}
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		if p.Type == "document" {
			ids = append(ids, p.ID)
		}
		ids = append(ids, documentIDs(p.Pages)...)
	}
	return ids
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
