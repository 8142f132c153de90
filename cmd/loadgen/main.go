// Command loadgen is a small closed-loop HTTP load generator for testdata/bench/load.sh: -c workers, each
// with a keep-alive connection, send GET requests to -url for -d after a -warm period, and the
// result is printed as requests per second with p50/p99 latency. Only 200s count; any other
// status (or a transport error) makes it exit non-zero.
//
//	loadgen -url http://127.0.0.1:8080/v1/spaces/ID -header 'Authorization: Bearer TOKEN' -c 32 -d 8s -warm 1s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

func main() {
	var headers headerFlags
	url := flag.String("url", "", "URL to GET (required)")
	flag.Var(&headers, "header", "request header 'Name: value' (repeatable)")
	conc := flag.Int("c", 32, "concurrent connections (one worker each)")
	dur := flag.Duration("d", 8*time.Second, "measured duration")
	warm := flag.Duration("warm", time.Second, "warm-up before measuring (not counted)")
	label := flag.String("label", "", "name printed with the result")
	flag.Parse()
	if *url == "" || *conc < 1 || *dur <= 0 {
		fmt.Fprintln(os.Stderr, "usage: loadgen -url URL [-header 'K: V'] [-c N] [-d DUR] [-warm DUR]")
		os.Exit(2)
	}
	hdr := http.Header{}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			fmt.Fprintf(os.Stderr, "loadgen: bad -header %q (want 'Name: value')\n", h)
			os.Exit(2)
		}
		hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}

	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        *conc,
		MaxIdleConnsPerHost: *conc,
		MaxConnsPerHost:     *conc,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}

	var (
		measuring atomic.Bool
		stopped   atomic.Bool
		ok200     atomic.Int64
		bad       atomic.Int64
		firstBad  atomic.Value // string
		wg        sync.WaitGroup
	)
	lat := make([][]time.Duration, *conc)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	for w := 0; w < *conc; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			mine := make([]time.Duration, 0, 1<<16)
			for !stopped.Load() {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
				req.Header = hdr.Clone()
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					if stopped.Load() && errors.Is(err, context.Canceled) {
						break
					}
					bad.Add(1)
					firstBad.CompareAndSwap(nil, "error: "+err.Error())
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				d := time.Since(t0)
				if !measuring.Load() || stopped.Load() {
					if resp.StatusCode != http.StatusOK {
						bad.Add(1)
						firstBad.CompareAndSwap(nil, "status: "+resp.Status)
					}
					continue
				}
				if resp.StatusCode != http.StatusOK {
					bad.Add(1)
					firstBad.CompareAndSwap(nil, "status: "+resp.Status)
					continue
				}
				ok200.Add(1)
				mine = append(mine, d)
			}
			lat[w] = mine
		}(w)
	}

	time.Sleep(*warm)
	measuring.Store(true)
	start := time.Now()
	time.Sleep(*dur)
	stopped.Store(true)
	elapsed := time.Since(start)
	n := ok200.Load() // read at the instant measuring stops
	cancel()
	wg.Wait()

	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		i := int(p * float64(len(all)-1))
		return all[i]
	}
	rps := float64(n) / elapsed.Seconds()
	name := *label
	if name == "" {
		name = *url
	}
	fmt.Printf("%s: %.0f req/s (%d ok in %.2fs, c=%d) p50=%s p99=%s errors=%d\n",
		name, rps, n, elapsed.Seconds(), *conc, round(pct(0.50)), round(pct(0.99)), bad.Load())
	// The machine-readable line load.sh reads.
	fmt.Printf("RPS %.1f\n", rps)
	if bad.Load() > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: %d requests were not 200 (first: %v)\n", bad.Load(), firstBad.Load())
		os.Exit(1)
	}
	if n == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: no request completed")
		os.Exit(1)
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}
